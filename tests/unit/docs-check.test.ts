import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDocs, envVariables, headingAnchor } from "../../scripts/docs-check";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

const ENV_MODULE = `
const EnvSchema = z.object({
  PORT: z.coerce.number().int().default(3000),
  // a comment
  PAGE_CACHE: z.enum(["true", "false"]).default("true"),
  SMTP_URL: optionalText,
});
export const ENV_VARIABLES = [...Object.keys(EnvSchema.shape), "ENV_FILE"];
`;

const GOOD_README = `# Example

\`\`\`sh
npm install && npm start   # serves http://localhost:3000
npm test
\`\`\`

| variable | default | meaning |
|---|---|---|
| \`PORT\` | \`3000\` | HTTP port |
| \`PAGE_CACHE\` | \`true\` | keep pages in memory |
| \`SMTP_URL\` | - | mail server |
| \`ENV_FILE\` | \`.env\` | the settings file |

See [deployment](docs/deployment.md) and \`scripts/bench.ts\`; run \`npm run bench -- --skip-build\`.
`;

const GOOD_DEPLOYMENT = `# Deployment

\`\`\`sh
sudo npm run build
node build/server.js
npx tsx scripts/bench.ts --skip-build
npx vitest run tests/unit/*.test.ts
\`\`\`

Back to the [README](../README.md#example). \`deploy/Caddyfile\` is the proxy's.
\`BENCH_SECONDS=2 npm run bench\` is quicker; \`PAGE_CACHE=false\` renders every page.
Up to [Deployment](#deployment).
`;

/** A small project on disk: package.json, env.server.ts, .env.example, the docs and the files they name. */
function project(docs: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "docs-check-"));
  folders.push(root);
  const files: Record<string, string> = {
    "package.json": JSON.stringify({
      scripts: {
        start: "node build/server.js",
        test: "vitest run",
        build: "react-router build",
        bench: "tsx scripts/bench.ts",
      },
    }),
    "app/server/runtime/env.server.ts": ENV_MODULE,
    ".env.example": "PORT=3000\nPAGE_CACHE=true\n# SMTP_URL=smtp://mail.example.com\n",
    "scripts/bench.ts":
      'const flag = (name: string) => process.argv.includes(`--${name}`);\nflag("skip-build");\n' +
      "const seconds = Number(process.env.BENCH_SECONDS ?? 8);\n",
    "tests/unit/a.test.ts": "",
    "deploy/Caddyfile": "",
    ...docs,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const messages = (root: string) =>
  checkDocs(root).map((problem) => `${problem.file}:${problem.line}: ${problem.message}`);

describe("npm run docs:check", () => {
  it("passes docs whose commands, files and variables all exist", () => {
    expect(messages(project({ "README.md": GOOD_README, "docs/deployment.md": GOOD_DEPLOYMENT }))).toEqual([]);
  });

  it("reports each broken command, file, link and table row with its line", () => {
    const brokenReadme = GOOD_README.replace("npm test\n", "npm test\nnpm run deploy -- --fast\n")
      .replace("| `SMTP_URL` | - | mail server |\n", "| `MAIL_URL` | - | mail server |\n")
      .replace("| `PAGE_CACHE` | `true` |", "| `PAGE_CACHE` | `false` |")
      .replace("--skip-build`", "--skip-buidl`");
    const brokenDeployment = GOOD_DEPLOYMENT.replace("node build/server.js", "node scripts/serve.mjs")
      .replace("tests/unit/*.test.ts", "tests/e2e/*.spec.ts")
      .replace("../README.md", "../READ_ME.md")
      .replace("deploy/Caddyfile", "deploy/Caddyfile.example")
      .replace("sudo npm run build", "sudo npm deploy")
      .replace("BENCH_SECONDS=2", "BENCH_SECS=2")
      .replace("(#deployment)", "(#deploy)");
    expect(messages(project({ "README.md": brokenReadme, "docs/deployment.md": brokenDeployment }))).toEqual([
      'README.md:6: `npm run deploy`: package.json has no script "deploy"',
      "README.md:13: MAIL_URL: no such environment variable (not read by the code)",
      "README.md:16: `npm run bench -- --skip-buidl`: scripts/bench.ts knows no option --skip-buidl",
      'README.md:12: configuration table: PAGE_CACHE defaults to "true" in .env.example, the table says "false"',
      "README.md:13: configuration table: MAIL_URL is not read by app/server/runtime/env.server.ts",
      "README.md:9: configuration table: SMTP_URL is missing",
      "docs/deployment.md:4: `npm deploy`: not an npm command this project uses (npm run deploy?)",
      "docs/deployment.md:5: `node scripts/serve.mjs`: there is no file scripts/serve.mjs",
      "docs/deployment.md:5: scripts/serve.mjs: no such file or folder",
      "docs/deployment.md:7: tests/e2e/*.spec.ts: no such file or folder",
      "docs/deployment.md:10: deploy/Caddyfile.example: no such file or folder",
      "docs/deployment.md:11: BENCH_SECS: no such environment variable (not read by the code)",
      "docs/deployment.md:10: link to ../READ_ME.md#example: no such file",
      "docs/deployment.md:12: link to #deploy: no heading with that anchor",
    ]);
  });

  it.each([
    ["Why TRUST_PROXY=loopback", "why-trust_proxyloopback"],
    ["1. The app", "1-the-app"],
    ["Landers: your domains' own pages", "landers-your-domains-own-pages"],
    ["Direct pages and prepared shells", "direct-pages-and-prepared-shells"],
  ])("links to the heading %s by GitHub's anchor %s", (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });

  it("reports a README that no longer gives the two commands", () => {
    const readme = GOOD_README.replace("npm install && npm start", "npm ci && npm start").replace(
      "npm test\n",
      "npm run build\n",
    );
    expect(messages(project({ "README.md": readme, "docs/deployment.md": GOOD_DEPLOYMENT }))).toEqual([
      "README.md:1: the two commands: no code block line `npm install && npm start`",
      "README.md:1: the two commands: no code block line `npm test`",
    ]);
  });

  it("reports a README without its configuration table", () => {
    const withoutTable = GOOD_README.replace(/\| variable[\s\S]*?\n\n/, "");
    expect(messages(project({ "README.md": withoutTable, "docs/deployment.md": GOOD_DEPLOYMENT }))).toEqual([
      'README.md:1: no configuration table (a table whose first column is headed "variable")',
    ]);
  });

  it("reads every variable of the real env.server.ts, and the project's own docs pass", () => {
    const variables = envVariables(readFileSync(path.join(projectRoot, "app/server/runtime/env.server.ts"), "utf8"));
    const some = ["PORT", "DATABASE_URL", "TRUST_PROXY", "REFUND_RETRY_BASE_MS", "ENV_FILE"];
    expect(variables).toEqual(expect.arrayContaining(some));
    expect(checkDocs(projectRoot)).toEqual([]);
  });
});
