/**
 * The tipos of the ontology's editing surface (docs/ontology.md, "Editing the ontology"), in our
 * own TLD `ontology`: the "Ontology" area, the main section (one record per TLD, stored in
 * matrix_ontology_main) and the template section whose components every per-TLD ontology
 * section `<tld>0` shows (records in matrix_ontology; the loader synthesizes those sections as
 * virtual sections of the template). Only tipos here: no imports, so any module may use them.
 */

export const ONTOLOGY_TLD = 'ontology';
export const ONTOLOGY_AREA = 'ontology1';
/** One record per TLD: its code and name (mirrors main_dd). */
export const ONTOLOGY_MAIN_SECTION = 'ontology2';
export const MAIN_TLD = 'ontology3';
export const MAIN_NAME = 'ontology4';
/** The real section every `<tld>0` section is a virtual of. */
export const ONTOLOGY_TEMPLATE_SECTION = 'ontology5';

/** The template's components: one per field of a dd_ontology row. */
export const NODE_FIELDS = {
  term: 'ontology10',
  model: 'ontology11',
  parent: 'ontology12',
  order: 'ontology13',
  translatable: 'ontology14',
  targets: 'ontology15',
  mandatory: 'ontology16',
  unique: 'ontology17',
  dateMode: 'ontology18',
  listColumns: 'ontology19',
  properties: 'ontology20',
} as const;

/** The yes/no list the flags point into (record 1 = yes, 2 = no). */
export const YES_NO_SECTION = 'dd64';

/** The per-TLD ontology section's tipo: Dédalo's `<tld>0`. */
export const ontologySectionOf = (tld: string): string => `${tld}0`;

/**
 * A tipo of the ontology editing surface: a `<tld>0` section or anything of the `ontology` TLD.
 * Only global administrators (and root) reach these, whatever a profile grants.
 */
export function isOntologyEditingTipo(tipo: string): boolean {
  return /^[a-z]+0$/.test(tipo) || /^ontology[0-9]+$/.test(tipo);
}
