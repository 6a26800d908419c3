// What a CSV export writes in a text cell so that no spreadsheet runs it as a formula (CSV injection), and
// what the portfolio import takes off again. Pure, so the unit tests can try the tricky cells.

/**
 * A formula can start a cell, and a spreadsheet whose separator is `;` (or that splits a quoted cell at
 * `,`) starts a new cell after either: at each of those places, a run of `'` followed by one of
 * `= + - @`, tab or CR gets one more `'` in front. The extra `'` on cells that already had some is what
 * lets the import give every value back exactly as it was.
 */
const FORMULA_START = /(^|[;,])(?='*[=+\-@\t\r])/g;
/** The `'` guardCell added: one, at a cell start or after `;` or `,`, before a run of `'` and a formula start. */
const ADDED_GUARD = /(^|[;,])'(?='*[=+\-@\t\r])/g;

/** `=1+2` -> `'=1+2`; `note;=1+1` -> `note;'=1+1`; `'-x` -> `''-x`. */
export function guardCell(value: string): string {
  return value.replace(FORMULA_START, "$1'");
}

/** Undoes guardCell: `'=1+2` reads as `=1+2`, `note;'=1+1` as `note;=1+1`. */
export function unguardCell(value: string): string {
  return value.replace(ADDED_GUARD, "$1");
}
