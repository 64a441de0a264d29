/**
 * What the format readers hand to normalisation: the rows of one ontology table, each cell as
 * text (or null), keyed by the column name the file uses.
 */

/** `jer_dd` is Dédalo 6's ontology table (Spanish column names), `dd_ontology` Dédalo 7's. */
export type OntologyTable = 'jer_dd' | 'dd_ontology';

/** How the rows were written: `INSERT INTO ... VALUES` statements or PostgreSQL COPY text. */
export type OntologySyntax = 'sql-insert' | 'copy';

export type OntologyFormat = `${OntologyTable}/${OntologySyntax}`;

export interface RawRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  /** Cell text by column name; SQL numbers and booleans as their text (`12`, `true`). */
  cells: Record<string, string | null>;
}

export interface RawTable {
  table: OntologyTable;
  syntax: OntologySyntax;
  rows: RawRow[];
}
