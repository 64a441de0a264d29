/**
 * CSV injection: a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, in some,
 * a tab or carriage return) as a formula, so text a cataloguer typed could run on the machine
 * of whoever opens the plain export. Such a cell gets a leading `'`, which spreadsheets show as
 * text and hide. A plain number (`-3`, `+1.5`) is left alone: it cannot be a formula, and a
 * negative amount stays a number. The Dédalo CSV is data for a re-import, not for people: its
 * cells are never changed.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

export function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}
