// `npm run bench -- --write-docs`: the run's figures as the one table of docs/performance.md, written
// between two marker comments so the text around it stays as written. Only the latest run is kept;
// earlier figures are in git.
import { readFileSync, writeFileSync } from "node:fs";

export const FIGURES_START = "<!-- bench:figures:start (written by npm run bench -- --write-docs) -->";
export const FIGURES_END = "<!-- bench:figures:end -->";

export interface Figure {
  /** What was measured, e.g. "`/domain/{short}`, page cache off". */
  measurement: string;
  /** The result, e.g. "1,448 req/s, 4.5x stock; server time p50 1.1 ms". */
  figure: string;
  /** The target, when there is one, e.g. ">= 2x stock". */
  target?: string;
  /** Whether the target was met (no target: undefined). */
  met?: boolean;
}

export interface FiguresRun {
  /** When the run started, e.g. "2026-11-23 16:40 UTC". */
  date: string;
  /** The command line, e.g. "npm run bench -- --skip-lighthouse". */
  command: string;
  /** Node version, CPUs, load average at the start. */
  machine: string;
  figures: Figure[];
}

/** A table cell: one line, no column breaks. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

function targetCell(figure: Figure): string {
  if (!figure.target) return "";
  if (figure.met === undefined) return cell(figure.target);
  return `${cell(figure.target)}: ${figure.met ? "met" : "**missed**"}`;
}

/** The block between the markers: one line saying which run, then the table. */
export function renderFiguresTable(run: FiguresRun): string {
  const lines = [
    `Latest run: ${cell(run.date)}, \`${cell(run.command)}\`; ${cell(run.machine)}.`,
    "",
    "| measurement | figure | target |",
    "|---|---|---|",
    ...run.figures.map((figure) => `| ${cell(figure.measurement)} | ${cell(figure.figure)} | ${targetCell(figure)} |`),
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
