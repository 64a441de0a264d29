/**
 * The one error the ontology file readers throw: the file cannot be read as an ontology (a syntax
 * error in the dump, or no ontology rows at all). Problems inside readable rows (bad JSON in a
 * cell, a duplicate tipo) are not errors: they are listed in the import report.
 */
export class OntologyParseError extends Error {
  constructor(
    message: string,
    /** 1-based line of the file where the problem is, when there is one. */
    readonly line: number | null = null,
  ) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = 'OntologyParseError';
  }
}
