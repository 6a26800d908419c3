import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  FIGURES_END,
  FIGURES_START,
  renderFiguresTable,
  replaceFiguresBlock,
  writeFiguresToDoc,
  type FiguresRun,
} from "../../bench/docs-figures";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const folder = mkdtempSync(path.join(tmpdir(), "bench-docs-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const run: FiguresRun = {
  date: "2026-11-23 16:40 UTC",
  command: "npm run bench -- --skip-lighthouse",
  machine: "100,000 domains, 3 rounds; Node v20.19.0, 2 cores, load average 3.1 at the start",
  rows: [
    { measurement: "stock `react-router-serve` app (baseline)", sqlite: { figure: "322 req/s" } },
    {
      measurement: "`/domain/{short}`, page cache off",
      target: ">= 5x stock (PostgreSQL >= 4x)",
      sqlite: { figure: "1,448 req/s, 4.5x stock", met: false },
      postgres: { figure: "1,401 req/s, 4.4x stock", met: true },
    },
    { measurement: "`/admin?q=nova` search", target: "p50 < 50 ms", postgres: { figure: "p50 77.0 ms", met: false } },
    { measurement: "a | in a cell", target: "informal", sqlite: { figure: "two\nlines" } },
  ],
};

const document = [
  "# Performance",
  "",
  "How to run it.",
  "",
  FIGURES_START,
  "Latest run: an old one.",
  "",
  "| measurement | figure | target |",
  "|---|---|---|",
  "| old | 1 req/s | |",
  FIGURES_END,
  "",
  "What the figures mean.",
  "",
].join("\n");

describe("the bench's figures table (npm run bench -- --write-docs)", () => {
  it("renders one Markdown table, a row per measurement with both engines side by side, with the run and machine", () => {
    const lines = renderFiguresTable(run).split("\n");
    expect(lines[0]).toBe(
      "Run: 2026-11-23 16:40 UTC, `npm run bench -- --skip-lighthouse`; " +
        "100,000 domains, 3 rounds; Node v20.19.0, 2 cores, load average 3.1 at the start.",
    );
    expect(lines.slice(2)).toEqual([
      "| measurement | target | SQLite | PostgreSQL |",
      "|---|---|---|---|",
      "| stock `react-router-serve` app (baseline) |  | 322 req/s |  |",
      "| `/domain/{short}`, page cache off | >= 5x stock (PostgreSQL >= 4x) " +
        "| 1,448 req/s, 4.5x stock: **not met** | 1,401 req/s, 4.4x stock: met |",
      "| `/admin?q=nova` search | p50 < 50 ms |  | p50 77.0 ms: **not met** |",
      "| a \\| in a cell | informal | two lines |  |",
    ]);
  });

  it("replaces only what lies between the markers, and a second run replaces the first", () => {
    const once = replaceFiguresBlock(document, renderFiguresTable(run));
    expect(once).not.toContain("| old | 1 req/s | |");
    const head = `# Performance\n\nHow to run it.\n\n${FIGURES_START}\nRun: 2026-11-23 16:40 UTC`;
    expect(once.startsWith(head)).toBe(true);
    const tail = `| a \\| in a cell | informal | two lines |  |\n${FIGURES_END}\n\nWhat the figures mean.\n`;
    expect(once.endsWith(tail)).toBe(true);

    const later = {
      ...run,
      date: "2026-11-24 09:00 UTC",
      rows: [{ measurement: "crawl", sqlite: { figure: "900 req/s" } }],
    };
    const twice = replaceFiguresBlock(once, renderFiguresTable(later));
    expect(twice).toBe(replaceFiguresBlock(document, renderFiguresTable(later)));
    expect(twice).not.toContain("1,448 req/s");
    expect(twice.match(/Run: /g)).toHaveLength(1);
  });

  it.each([
    ["no markers", "# Performance\n"],
    ["no end marker", `${FIGURES_START}\n`],
    ["the markers the wrong way round", `${FIGURES_END}\n${FIGURES_START}\n`],
    ["a marker twice", `${FIGURES_START}\n${FIGURES_END}\n${FIGURES_START}\n${FIGURES_END}\n`],
  ])("refuses a document with %s", (_case, text) => {
    expect(() => replaceFiguresBlock(text, renderFiguresTable(run))).toThrow(/must hold/);
  });

  it("rewrites the file in place", () => {
    const file = path.join(folder, "performance.md");
    writeFileSync(file, document);
    writeFiguresToDoc(file, run);
    expect(readFileSync(file, "utf8")).toBe(replaceFiguresBlock(document, renderFiguresTable(run)));
  });

  it("finds its markers in docs/performance.md, so --write-docs can rewrite it", () => {
    const performance = readFileSync(path.join(projectRoot, "docs/performance.md"), "utf8");
    const rewritten = replaceFiguresBlock(performance, renderFiguresTable(run));
    expect(rewritten).toContain("| `/domain/{short}`, page cache off | >= 5x stock (PostgreSQL >= 4x) | 1,448 req/s");
    const before = (text: string) => text.slice(0, text.indexOf(FIGURES_START));
    expect(before(rewritten)).toBe(before(performance));
    const after = (text: string) => text.slice(text.indexOf(FIGURES_END));
    expect(after(rewritten)).toBe(after(performance));
  });
});
