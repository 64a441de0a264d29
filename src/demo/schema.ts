/**
 * The tables of the demo archive, described as data (names, neutral column types, primary key,
 * full-text columns) so that the SQLite and the MariaDB sinks create the same schema from one
 * definition, and the row generators can be checked against it. Column names follow the
 * published databases, including the reserved word `date`, which the sinks always quote.
 */

export type ColumnType = 'int' | 'real' | 'varchar' | 'text' | 'date';

export interface ColumnDef {
  name: string;
  type: ColumnType;
}

export interface TableDef {
  name: string;
  columns: readonly ColumnDef[];
  primaryKey: readonly string[];
  /** Columns that get a full-text index (FTS5 table in SQLite, FULLTEXT index in MariaDB). */
  fullText: readonly string[];
  /** Columns with an ordinary index of their own: what a site filters and facets on. */
  indexes?: readonly string[];
}

/**
 * The columns of the ordinary index on `column`: the column, then `section_id` when the table
 * has one. Lists are filtered on such a column and sorted by section_id; with the id in the
 * index, SQLite reads a page of a filtered list in order from the index. With `lang` alone it
 * chose the index and sorted every row of the language (300 ms a page at 100k interviews,
 * against 0.8 ms; docs/benchmarks.md). InnoDB appends the primary key to every index anyway.
 */
export function indexColumns(def: TableDef, column: string): string[] {
  const withId = column !== 'section_id' && def.columns.some((c) => c.name === 'section_id');
  return withId ? [column, 'section_id'] : [column];
}

function cols(spec: string): ColumnDef[] {
  return spec
    .trim()
    .split(/\s+/)
    .map((item) => {
      const [name, type] = item.split(':') as [string, ColumnType];
      return { name, type };
    });
}

const THESAURUS_COLUMNS =
  'term_id:varchar term:varchar parent:varchar children:text descriptor:varchar norder:int scope_note:text indexation:text';

export const TABLE_DEFS: readonly TableDef[] = [
  {
    name: 'publication_schema',
    columns: cols('id:int data:text'),
    primaryKey: ['id'],
    fullText: [],
  },
  {
    name: 'interview',
    columns: cols(`section_id:int lang:varchar code:varchar title:varchar abstract:text transcription:text
      informant:text audiovisual:text image:text link:text date:date place:varchar duration:real
      dd_relations:text`),
    primaryKey: ['section_id', 'lang'],
    fullText: ['transcription', 'abstract'],
    indexes: ['lang', 'place', 'date'],
  },
  {
    name: 'informant',
    columns: cols(`section_id:int name:varchar surname:varchar birthplace:varchar birth_year:int
      gender:varchar image:text dd_relations:text`),
    primaryKey: ['section_id'],
    fullText: [],
    indexes: ['gender', 'birth_year', 'birthplace'],
  },
  {
    name: 'image',
    columns: cols('section_id:int title:varchar image:varchar dd_relations:text'),
    primaryKey: ['section_id'],
    fullText: [],
  },
  {
    name: 'audiovisual',
    columns: cols('section_id:int video:varchar image:varchar duration:real'),
    primaryKey: ['section_id'],
    fullText: [],
  },
  {
    name: 'publications',
    columns: cols('section_id:int lang:varchar title:varchar authors:varchar year:int text:text'),
    primaryKey: ['section_id', 'lang'],
    fullText: ['text'],
    indexes: ['lang', 'year'],
  },
  {
    name: 'ts_themes',
    columns: cols(`section_id:int lang:varchar ${THESAURUS_COLUMNS}`),
    primaryKey: ['section_id', 'lang'],
    fullText: [],
  },
  {
    name: 'ts_onomastic',
    columns: cols(`section_id:int ${THESAURUS_COLUMNS}`),
    primaryKey: ['section_id'],
    fullText: [],
  },
];

export function tableDef(name: string): TableDef {
  const def = TABLE_DEFS.find((t) => t.name === name);
  if (!def) throw new Error(`unknown demo table ${name}`);
  return def;
}
