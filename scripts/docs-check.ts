// `npm run docs:check`: what README.md, CONTRIBUTING.md and docs/*.md tell a reader to run must exist.
// - every `npm run <script>` (in code blocks and inline code) is a script of package.json, and each
//   `--option` after it is named in the script's file;
// - every file a command runs (`node x`, `tsx x`, `npx vitest run x`...) and every repository path in
//   code (`app/...`, `scripts/...`) or in a relative link exists, and a link's #anchor is a heading;
// - README.md's configuration table names every variable app/server/runtime/env.server.ts reads and
//   no other, and a default shown in .env.example is the table's default;
// - every environment variable named in code (`LOAD_SECONDS`, `PAGE_CACHE=false`) is one env.server.ts
//   reads or one some file reads from process.env;
// - README.md still gives the two commands: `npm install && npm start` and `npm test`.
// Cheap (no build, nothing started): part of `npm test`. Exits 1 and lists the problems.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ENV_MODULE = "app/server/runtime/env.server.ts";
/** Folders a repository path in a doc starts with. */
const REPOSITORY_FOLDERS = ["app", "bench", "db", "deploy", "docs", "public", "scripts", "tests", ".ci"];
/** npm's own commands a doc may use besides `npm run`. */
const NPM_COMMANDS = new Set(["install", "ci", "exec", "ls", "outdated", "pack", "view"]);
const FENCE = /^(```|~~~)\s*([\w-]*)\s*$/;
const SHELL_LANGUAGES = new Set(["", "sh", "bash", "shell", "console", "zsh"]);

export interface DocProblem {
  file: string;
  line: number;
  message: string;
}

interface Project {
  root: string;
  scripts: Record<string, string>;
}

/** The Markdown files the check reads: README.md, CONTRIBUTING.md and docs/*.md, as paths from the root. */
export function docFiles(root: string): string[] {
  const files = ["README.md", "CONTRIBUTING.md"].filter((file) => existsSync(path.join(root, file)));
  const docs = path.join(root, "docs");
  if (existsSync(docs)) {
    for (const name of readdirSync(docs).sort()) if (name.endsWith(".md")) files.push(`docs/${name}`);
  }
  return files;
}

/** Every variable env.server.ts reads: the keys of its zod schema and the extra names of ENV_VARIABLES. */
export function envVariables(source: string): string[] {
  const schema = /EnvSchema\s*=\s*z\.object\(\{\n([\s\S]*?)\n\}\);/.exec(source)?.[1] ?? "";
  const keys = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
  const extra = /ENV_VARIABLES\s*=\s*\[([\s\S]*?)\];/.exec(source)?.[1] ?? "";
  return [...keys, ...[...extra.matchAll(/"([A-Z][A-Z0-9_]*)"/g)].map((match) => match[1]!)];
}

/** `NAME=value` lines of .env.example (commented lines have no default). */
export function exampleDefaults(source: string): Map<string, string> {
  const defaults = new Map<string, string>();
  for (const match of source.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)) defaults.set(match[1]!, match[2]!.trim());
  return defaults;
}

interface CodeLine {
  line: number;
  text: string;
  /** From a fenced shell block (a command line), or inline code in prose. */
  block: boolean;
}

/** Shell lines of fenced blocks, and inline code spans elsewhere. */
function codeOf(markdown: string): { code: CodeLine[]; prose: Array<{ line: number; text: string }> } {
  const code: CodeLine[] = [];
  const prose: Array<{ line: number; text: string }> = [];
  let fence: { marker: string; shell: boolean } | null = null;
  markdown.split("\n").forEach((text, index) => {
    const line = index + 1;
    const opening = FENCE.exec(text.trim());
    if (fence) {
      if (opening && opening[1] === fence.marker && opening[2] === "") fence = null;
      else if (fence.shell) code.push({ line, text: text.replace(/^\s*\$\s+/, ""), block: true });
      return;
    }
    if (opening) {
      fence = { marker: opening[1]!, shell: SHELL_LANGUAGES.has(opening[2]!) };
      return;
    }
    prose.push({ line, text });
    for (const match of text.matchAll(/`([^`]+)`/g)) code.push({ line, text: match[1]!, block: false });
  });
  return { code, prose };
}

/** One shell line as its commands (split at &&, ||, ;, |), each a list of words; comments dropped. */
function commandsOf(text: string): string[][] {
  const withoutComment = text.replace(/(^|\s)#.*$/, "");
  return withoutComment
    .split(/&&|\|\||;|\|/)
    .map((command) => command.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0);
}

const isPlaceholder = (word: string) => /[<>{}$]|\.\.\./.test(word);

function fileExists(root: string, relative: string): boolean {
  const clean = relative.replace(/^\.\//, "").replace(/[),.:;]+$/, "");
  if (!clean.includes("*")) return existsSync(path.join(root, clean));
  const folder = path.join(root, path.dirname(clean));
  const pattern = new RegExp(
    `^${path
      .basename(clean)
      .replace(/[.+?^()[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")}$`,
  );
  return existsSync(folder) && readdirSync(folder).some((name) => pattern.test(name));
}

/** The (last) file an npm script runs with node or tsx (`tsx scripts/bench.ts` -> scripts/bench.ts). */
function scriptFile(command: string): string | null {
  const files = [...command.matchAll(/(?:^|\s)(?:tsx|node)\s+(?:--[\w-]+(?:=\S+)?\s+)*([\w./-]+\.(?:ts|mjs|js))/g)];
  return files.at(-1)?.[1] ?? null;
}

function checkCommand(project: Project, words: string[], report: (message: string) => void): void {
  const [program, ...args] = words[0] === "sudo" ? words.slice(1) : words;
  if (program === "npm") {
    const [sub, ...rest] = args;
    if (!sub || sub.startsWith("-")) return;
    if (sub === "run" || sub === "run-script") {
      const name = rest[0];
      if (!name || isPlaceholder(name)) return;
      const script = project.scripts[name];
      if (script === undefined) return report(`\`npm run ${name}\`: package.json has no script "${name}"`);
      const separator = rest.indexOf("--");
      const file = scriptFile(script);
      if (separator < 0 || !file || !existsSync(path.join(project.root, file))) return;
      const source = readFileSync(path.join(project.root, file), "utf8");
      for (const option of rest.slice(separator + 1).filter((word) => word.startsWith("--"))) {
        const optionName = option.slice(2).split("=")[0]!;
        if (optionName && !source.includes(optionName)) {
          report(`\`npm run ${name} -- ${option}\`: ${file} knows no option --${optionName}`);
        }
      }
      return;
    }
    if (sub === "start" || sub === "test") {
      if (project.scripts[sub] === undefined) report(`\`npm ${sub}\`: package.json has no script "${sub}"`);
      return;
    }
    if (!NPM_COMMANDS.has(sub)) report(`\`npm ${sub}\`: not an npm command this project uses (npm run ${sub}?)`);
    return;
  }
  const runsFile = program === "node" || program === "tsx" || (program === "npx" && args[0] === "tsx");
  if (runsFile) {
    const file = (program === "npx" ? args.slice(1) : args).find((word) => !word.startsWith("-"));
    // build/ is made by `npm run build`: not there in a fresh checkout.
    const built = file?.replace(/^\.\//, "").startsWith("build/");
    if (file && !built && !isPlaceholder(file) && !fileExists(project.root, file)) {
      report(`\`${words.join(" ")}\`: there is no file ${file}`);
    }
  }
}

/** Repository paths in a piece of code (`app/server/x.ts`, `deploy/Caddyfile`, `tests/unit/*.test.ts`). */
function checkPaths(project: Project, text: string, report: (message: string) => void): void {
  const folders = REPOSITORY_FOLDERS.map((folder) => folder.replace(".", "\\.")).join("|");
  const pattern = new RegExp(`(?:^|[\\s"'(=])(?:\\./)?((?:${folders})/[\\w./*+-]*[\\w*])`, "g");
  for (const match of text.matchAll(pattern)) {
    const candidate = match[1]!;
    if (isPlaceholder(candidate)) continue;
    if (!fileExists(project.root, candidate)) report(`${candidate}: no such file or folder`);
  }
}

/** Relative links of a doc ([text](docs/x.md), [text](../server.ts#anchor)) must point at something. */
type Prose = Array<{ line: number; text: string }>;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const text of markdown.split("\n")) {
    if (FENCE.test(text.trim())) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(text);
    if (heading) anchors.add(headingAnchor(heading[1]!));
  }
  return anchors;
}

/** Links of a doc to files ([text](docs/x.md)) and to headings ([text](x.md#a-heading), [text](#here)). */
function checkLinks(project: Project, file: string, prose: Prose, problems: DocProblem[]): void {
  for (const { line, text } of prose) {
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const [target = "", anchor] = match[1]!.split("#");
      if (/^[a-z]+:/i.test(target)) continue;
      const resolved = target ? path.resolve(project.root, path.dirname(file), target) : path.join(project.root, file);
      if (!existsSync(resolved)) {
        problems.push({ file, line, message: `link to ${match[1]}: no such file` });
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) {
        problems.push({ file, line, message: `link to ${match[1]}: no heading with that anchor` });
      }
    }
  }
}

/** README.md's configuration table: the table whose first column is headed "variable". */
function checkConfigTable(root: string, markdown: string, problems: DocProblem[]): void {
  const file = "README.md";
  const envSource = readFileSync(path.join(root, ENV_MODULE), "utf8");
  const known = envVariables(envSource);
  if (known.length === 0) {
    const message = "found no variables (EnvSchema = z.object({...}) and ENV_VARIABLES)";
    problems.push({ file: ENV_MODULE, line: 1, message });
    return;
  }
  const examplePath = path.join(root, ".env.example");
  const defaults = exampleDefaults(existsSync(examplePath) ? readFileSync(examplePath, "utf8") : "");
  const lines = markdown.split("\n");
  const header = lines.findIndex((text) => /^\|\s*variable\s*\|/i.test(text));
  if (header < 0) {
    const message = 'no configuration table (a table whose first column is headed "variable")';
    problems.push({ file, line: 1, message });
    return;
  }
  const named = new Set<string>();
  for (let index = header + 2; index < lines.length && lines[index]!.startsWith("|"); index += 1) {
    const cells = lines[index]!.split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim());
    const variables = [...(cells[0] ?? "").matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!);
    for (const variable of variables) {
      named.add(variable);
      if (!known.includes(variable)) {
        const message = `configuration table: ${variable} is not read by ${ENV_MODULE}`;
        problems.push({ file, line: index + 1, message });
      }
    }
    const shown = (cells[1] ?? "").replace(/`/g, "").trim();
    const expected = variables.length === 1 ? defaults.get(variables[0]!) : undefined;
    if (expected !== undefined && shown !== expected) {
      problems.push({
        file,
        line: index + 1,
        message: `configuration table: ${variables[0]} defaults to "${expected}" in .env.example, the table says "${shown}"`,
      });
    }
  }
  for (const variable of known) {
    if (!named.has(variable)) {
      problems.push({ file, line: header + 1, message: `configuration table: ${variable} is missing` });
    }
  }
}

/** Folders and files whose `process.env.NAME` reads make NAME a variable a doc may name. */
const SOURCES = ["app", "bench", "db", "scripts", "tests/support", "server.ts", "server"];

/** Names read as process.env.NAME (or process.env["NAME"]) anywhere in the sources. */
function variablesReadBySources(root: string): Set<string> {
  const names = new Set<string>();
  const visit = (relative: string) => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full)) {
        if (name !== "node_modules" && name !== "build") visit(path.join(relative, name));
      }
      return;
    }
    if (!/\.(?:ts|tsx|mjs|js)$/.test(relative)) return;
    const source = readFileSync(full, "utf8");
    for (const match of source.matchAll(/process\.env(?:\.|\[")([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
  };
  SOURCES.forEach(visit);
  return names;
}

/** A name in code that looks like an environment variable: capitals with an underscore (`PAGE_CACHE`). */
const VARIABLE_NAME = /(?<![\w-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w-])/g;

/** README.md must keep saying the two commands. */
function checkTwoCommands(code: CodeLine[], problems: DocProblem[]): void {
  for (const command of ["npm install && npm start", "npm test"]) {
    const found = code.some(({ text, block }) => block && text.replace(/\s+#.*$/, "").trim() === command);
    const message = `the two commands: no code block line \`${command}\``;
    if (!found) problems.push({ file: "README.md", line: 1, message });
  }
}

/** Every problem in the project's docs at `root` (empty: all good). */
export function checkDocs(root: string): DocProblem[] {
  const packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const project: Project = { root, scripts: packageJson.scripts ?? {} };
  const problems: DocProblem[] = [];
  const variables = new Set([
    ...envVariables(readFileSync(path.join(root, ENV_MODULE), "utf8")),
    ...variablesReadBySources(root),
  ]);
  for (const file of docFiles(root)) {
    const markdown = readFileSync(path.join(root, file), "utf8");
    const { code, prose } = codeOf(markdown);
    for (const { line, text, block } of code) {
      const report = (message: string) => problems.push({ file, line, message });
      // Inline code in prose is a command only when it starts as one (`npm run bench`, `node server.ts`).
      if (block || /^(?:sudo\s+)?(?:npm|npx|node|tsx)\s/.test(text)) {
        for (const words of commandsOf(text)) checkCommand(project, words, report);
      }
      checkPaths(project, text, report);
      for (const match of text.matchAll(VARIABLE_NAME)) {
        if (!variables.has(match[1]!)) report(`${match[1]}: no such environment variable (not read by the code)`);
      }
    }
    checkLinks(project, file, prose, problems);
    if (file === "README.md") {
      checkTwoCommands(code, problems);
      checkConfigTable(root, markdown, problems);
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = path.resolve(import.meta.dirname, "..");
  const problems = checkDocs(root);
  for (const problem of problems) console.error(`${problem.file}:${problem.line}: ${problem.message}`);
  if (problems.length > 0) {
    console.error(`docs:check: ${problems.length} problem(s) in ${docFiles(root).join(", ")}`);
    process.exit(1);
  }
  console.log(`docs:check: ${docFiles(root).join(", ")}: every command, file and variable checked exists`);
}
