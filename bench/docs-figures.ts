// The bench's one table (scripts/bench.ts prints it at the end of every run) and, with
// `npm run bench -- --write-docs`, the same table in docs/performance.md, written between two marker
// comments so the text around it stays as written. Only the latest run is kept; earlier figures are in git.
import { readFileSync, writeFileSync } from "node:fs";

export const FIGURES_START = "<!-- bench:figures:start (written by npm run bench -- --write-docs) -->";
export const FIGURES_END = "<!-- bench:figures:end -->";

/** One engine's result in a row: the figure, and whether it met the row's target (no target: undefined). */
export interface EngineFigure {
  figure: string;
  met?: boolean;
}

/**
 * One row of the bench's table: what was measured, its target, and the result on each engine measured
 * (a row measured on one engine leaves the other empty). Other parts of the bench add rows of their own
 * (bench/browse-rows.ts, ...) to the same list.
 */
export interface BenchRow {
  /** What was measured, e.g. "`/domain/{short}`, page cache off". */
  measurement: string;
  /** The target, when there is one, e.g. ">= 5x stock". */
  target?: string;
  sqlite?: EngineFigure;
  postgres?: EngineFigure;
}

export interface FiguresRun {
  /** When the run started, e.g. "2026-11-23 16:40 UTC". */
  date: string;
  /** The command line, e.g. "npm run bench -- --skip-lighthouse". */
  command: string;
  /** The machine: cores, load average at the start, Node. */
  machine: string;
  rows: BenchRow[];
}

/** A table cell: one line, no column breaks. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

function engineCell(result: EngineFigure | undefined): string {
  if (!result) return "";
  if (result.met === undefined) return cell(result.figure);
  return `${cell(result.figure)}: ${result.met ? "met" : "**not met**"}`;
}

/** The table: one line saying which run and on what machine, then a row per measurement, engines side by side. */
export function renderFiguresTable(run: FiguresRun): string {
  const lines = [
    `Run: ${cell(run.date)}, \`${cell(run.command)}\`; ${cell(run.machine)}.`,
    "",
    "| measurement | target | SQLite | PostgreSQL |",
    "|---|---|---|---|",
    ...run.rows.map(
      (row) =>
        `| ${cell(row.measurement)} | ${cell(row.target ?? "")} | ${engineCell(row.sqlite)} | ${engineCell(row.postgres)} |`,
    ),
  ];
  return lines.join("\n");
}

/** The document with the block between the markers replaced; it must hold each marker once, in order. */
export function replaceFiguresBlock(document: string, block: string): string {
  const start = document.indexOf(FIGURES_START);
  const end = document.indexOf(FIGURES_END);
  const once = (marker: string, at: number) => at >= 0 && document.indexOf(marker, at + 1) < 0;
  if (!once(FIGURES_START, start) || !once(FIGURES_END, end) || end < start) {
    throw new Error(`the document must hold "${FIGURES_START}" once, followed by "${FIGURES_END}" once`);
  }
  return `${document.slice(0, start + FIGURES_START.length)}\n${block}\n${document.slice(end)}`;
}

/** Rewrites the figures of the document at `file` (docs/performance.md) in place. */
export function writeFiguresToDoc(file: string, run: FiguresRun): void {
  writeFileSync(file, replaceFiguresBlock(readFileSync(file, "utf8"), renderFiguresTable(run)));
}
