/**
 * The dump readers on hand-written snippets: SQL literals and COPY escapes, statements that are
 * skipped, refusals with their message, and the problems the report lists with their line.
 */
import { describe, expect, it } from 'vitest';
import { decodeCopyField, encodeCopyField } from '../../../src/work/ontology/import/copy-text.js';
import { OntologyParseError } from '../../../src/work/ontology/import/parse-error.js';
import { readDump } from '../../../src/work/ontology/import/read-dump.js';
import { readOntologyFile } from '../../../src/work/ontology/import/read-ontology-file.js';

const MODELS = [
  `INSERT INTO jer_dd ("terminoID", parent, esmodelo, term) VALUES`,
  `('dd6', NULL, 'si', '{"lg-spa": "section"}'),`,
  `('dd9', NULL, 'si', '{"lg-spa": "component_input_text"}');`,
].join('\n');

function refusal(text: string): OntologyParseError {
  try {
    readOntologyFile(text);
  } catch (e) {
    expect(e).toBeInstanceOf(OntologyParseError);
    return e as OntologyParseError;
  }
  throw new Error('no refusal');
}

describe('INSERT statements', () => {
  it('reads standard and escape strings, NULL, numbers, booleans and casts, in any column order', () => {
    const raw = readDump(
      [
        `insert into public."jer_dd" (term, norden, "terminoID", parent, traducible, propiedades, visible) values`,
        `('{"lg-spa": "l''été"}', 3, 'oh1', NULL, 'si', E'{"a": "x\\ny\\tz \\\\ \\' \\u00e9 \\303\\251 \\xc3\\xa9"}', true),`,
        `  ( '{}'::jsonb , -1.5e1, 'oh2'::character varying(32), 'oh1', 'no'::public.sino, NULL, FALSE ) ;`,
      ].join('\n'),
    );
    expect(raw.syntax).toBe('sql-insert');
    expect(raw.rows).toEqual([
      {
        line: 2,
        cells: {
          term: '{"lg-spa": "l\'été"}',
          norden: '3',
          terminoID: 'oh1',
          parent: null,
          traducible: 'si',
          propiedades: '{"a": "x\ny\tz \\ \' é é é"}',
          visible: 'true',
        },
      },
      {
        line: 3,
        cells: {
          term: '{}',
          norden: '-1.5e1',
          terminoID: 'oh2',
          parent: 'oh1',
          traducible: 'no',
          propiedades: null,
          visible: 'false',
        },
      },
    ]);
  });

  it('keeps backslashes of standard strings and skips other statements, comments and function bodies', () => {
    const { nodes } = readOntologyFile(
      [
        '-- a comment; with INSERT INTO jer_dd (x) VALUES (1);',
        '/* block /* nested; */ INSERT INTO jer_dd */',
        `CREATE FUNCTION f() RETURNS void AS $body$ INSERT INTO jer_dd ("terminoID") VALUES ('zz1'); $body$ LANGUAGE sql;`,
        `INSERT INTO other (a) VALUES ('INSERT INTO jer_dd; '';');`,
        '\\connect archive',
        MODELS,
        `INSERT INTO jer_dd ("terminoID", modelo, term, propiedades) VALUES ('oh1', 'dd6', '{"lg-spa": "a\\b"}', '{"x": 1}') ON CONFLICT DO NOTHING;`,
      ].join('\n'),
    );
    expect(nodes.map((n) => n.tipo)).toEqual(['dd6', 'dd9', 'oh1']);
    expect(nodes[2]).toMatchObject({ model: 'section', term: { 'lg-spa': 'a\b' }, properties: { x: 1 } });
  });

  it('reads backslash escapes in plain strings after SET standard_conforming_strings = off', () => {
    const text = (setting: string) =>
      `SET standard_conforming_strings = ${setting};\nINSERT INTO jer_dd ("terminoID", term) VALUES ('dd1', 'a\\nb; \\' c');`;
    expect(readDump(text('off')).rows[0]!.cells.term).toBe("a\nb; ' c");
    expect(() => readDump(text('on'))).toThrow(OntologyParseError);
  });

  it('refuses an INSERT without a column list, a short row and an unterminated string, with the line', () => {
    expect(refusal(`SET x = 1;\nINSERT INTO jer_dd VALUES ('dd1');`).message).toBe(
      'line 2: INSERT INTO jer_dd without a column list: dump with pg_dump --column-inserts',
    );
    expect(refusal(`INSERT INTO jer_dd ("terminoID", parent) VALUES\n('dd1', NULL),\n('dd2');`).message).toBe(
      'line 3: a row has 1 values for 2 columns',
    );
    expect(refusal(`\n\nINSERT INTO jer_dd ("terminoID") VALUES ('dd1);`).message).toBe(
      'line 3: unterminated string literal',
    );
    expect(refusal(`INSERT INTO jer_dd ("terminoID") VALUES (now());`).message).toMatch(
      /^line 1: expected a value/,
    );
  });
});

describe('COPY text', () => {
  it('decodes \\N, tabs, newlines, backslashes, octal and hex escapes', () => {
    expect(decodeCopyField('\\N', 1)).toBeNull();
    expect(decodeCopyField('a\\tb\\nc\\\\d\\r\\b\\f\\v', 1)).toBe('a\tb\nc\\d\r\b\f\v');
    expect(decodeCopyField('\\303\\251 \\xc3\\xa9 \\q', 1)).toBe('é é q');
    expect(decodeCopyField('\\\\N', 1)).toBe('\\N');
    for (const s of ['', '\\', '\\N', 'a\tb\n\r\\', 'ñ 漢 😀'])
      expect(decodeCopyField(encodeCopyField(s), 1)).toBe(s);
  });

  it('reads jer_dd and dd_ontology COPY blocks and skips the other tables', () => {
    const copy = [
      'COPY public.matrix (id, datos) FROM stdin;',
      '1\t{"oh1": 2}',
      '\\.',
      'COPY public.jer_dd ("terminoID", parent, modelo, esmodelo, term, traducible) FROM stdin;',
      'dd6\t\\N\t\\N\tsi\t{"lg-spa": "section"}\tno',
      'oh1\t\\N\tdd6\tno\t{"lg-spa": "Entrevistas\\\\tcon tab"}\tsi',
      '\\.',
    ].join('\r\n');
    const jer = readOntologyFile(copy);
    expect(jer.report.format).toBe('jer_dd/copy');
    expect(jer.nodes[1]).toMatchObject({ tipo: 'oh1', model: 'section', translatable: true });
    expect(jer.nodes[1]!.term['lg-spa']).toBe('Entrevistas\tcon tab');

    const dd = readOntologyFile(
      [
        'COPY dd_ontology (tipo, parent, term, model, order_number, relations, tld, is_translatable, is_main) FROM stdin;',
        'oh1\t\\N\t{"lg-eng": "Interviews"}\tsection\t1\t[{"tipo": "rsc197"}]\toh\tf\tt',
        'oh2\toh1\t{"lg-eng": "Code"}\tcomponent_input_text\t2\t[]\toh\tt\tf',
        '\\.',
      ].join('\n'),
    );
    expect(dd.report.format).toBe('dd_ontology/copy');
    expect(dd.nodes).toEqual([
      {
        tipo: 'oh1',
        parent: null,
        model: 'section',
        is_model: false,
        order: 1,
        tld: 'oh',
        translatable: false,
        relations: ['rsc197'],
        properties: null,
        term: { 'lg-eng': 'Interviews' },
        extra: { is_main: 't' },
      },
      {
        tipo: 'oh2',
        parent: 'oh1',
        model: 'component_input_text',
        is_model: false,
        order: 2,
        tld: 'oh',
        translatable: true,
        relations: [],
        properties: null,
        term: { 'lg-eng': 'Code' },
        extra: { is_main: 'f' },
      },
    ]);
    expect(dd.report.relations_to_missing_tlds).toEqual({ rsc: 1 });
  });

  it('refuses a row with the wrong number of fields, CSV COPY and a COPY without columns', () => {
    expect(refusal('COPY jer_dd ("terminoID", parent) FROM stdin;\ndd1\t\\N\ndd2\n\\.\n').message).toBe(
      'line 3: a COPY row has 1 tab-separated fields for 2 columns',
    );
    expect(refusal('COPY jer_dd ("terminoID") FROM stdin WITH (FORMAT csv);\ndd1\n\\.').message).toMatch(
      /only the text format is read/,
    );
    expect(refusal('COPY jer_dd FROM stdin;\ndd1\n\\.').message).toBe(
      'line 1: COPY jer_dd without a column list',
    );
  });
});

describe('refusals of files without an ontology', () => {
  it('names what the file holds instead', () => {
    expect(refusal('').message).toBe(
      'no ontology rows found: expected INSERT INTO jer_dd (...) VALUES rows, or COPY jer_dd / COPY dd_ontology ' +
        '(...) FROM stdin text; the file holds no SQL statements',
    );
    expect(
      refusal('SET a = 1;\nINSERT INTO matrix (id) VALUES (1);\nCOPY matrix_users (id) FROM stdin;\n1\n\\.\n')
        .message,
    ).toMatch(/the file holds: SET, INSERT INTO matrix, COPY matrix_users$/);
    expect(refusal('COPY jer_dd ("terminoID") FROM stdin;\n\\.\n').message).toMatch(
      /\(the ontology table is there but empty\)/,
    );
    expect(refusal('{"tipo": "oh1"}').message).toMatch(/^no ontology rows found/);
  });

  it('refuses a file mixing jer_dd and dd_ontology rows', () => {
    expect(
      refusal(
        'COPY jer_dd ("terminoID") FROM stdin;\ndd1\n\\.\nCOPY dd_ontology (tipo) FROM stdin;\ndd1\n\\.\n',
      ).message,
    ).toBe('the file holds rows of both jer_dd and dd_ontology: import one table at a time');
  });
});

describe('problems in readable rows', () => {
  it('lists bad JSON, a duplicate tipo, a missing parent, a bad tipo and an unresolved model with their line', () => {
    const { nodes, report } = readOntologyFile(
      [
        MODELS,
        `INSERT INTO jer_dd ("terminoID", parent, modelo, esmodelo, term, relaciones, properties, norden, traducible) VALUES`,
        `('oh1', NULL, 'dd6', 'no', '{"lg-spa": "Entrevistas"}', '[{"dd6": "rsc197"}]', '{bad', '1', 'no'),`,
        `('oh2', 'oh1', 'dd99', 'no', '{"lg-spa": "Código"}', NULL, NULL, 'x', 'quizá'),`,
        `('oh1', NULL, 'dd6', 'no', '{}', NULL, NULL, NULL, NULL),`,
        `('oh3', 'oh77', 'dd9', 'no', '["not", "labels"]', '{"dd6": 5}', NULL, NULL, NULL),`,
        `('OH4', NULL, NULL, 'no', NULL, NULL, NULL, NULL, NULL);`,
      ].join('\n'),
    );
    expect(nodes.map((n) => [n.tipo, n.model])).toEqual([
      ['dd6', null],
      ['dd9', null],
      ['oh1', 'section'],
      ['oh2', null],
      ['oh3', 'component_input_text'],
    ]);
    expect(nodes[2]).toMatchObject({ relations: ['rsc197'], properties: null, order: 1 });
    expect(report.unresolved_models).toEqual([{ model_tipo: 'dd99', tipos: ['oh2'] }]);
    expect(report.problems.map((p) => [p.line, p.kind, p.tipo])).toEqual([
      [5, 'bad_json', 'oh1'],
      [6, 'model_unresolved', 'oh2'],
      [6, 'bad_value', 'oh2'],
      [6, 'bad_value', 'oh2'],
      [7, 'duplicate_tipo', 'oh1'],
      [8, 'bad_json', 'oh3'],
      [8, 'bad_value', 'oh3'],
      [8, 'parent_missing', 'oh3'],
      [9, 'bad_tipo', null],
    ]);
    expect(report.problems[0]!.message).toMatch(/^properties of oh1 is not JSON/);
    expect(report.problems[4]!.message).toBe('oh1 is already defined on line 5; this row is ignored');
    expect(report.problems[7]!.message).toBe('the parent oh77 of oh3 is not in the file');
    expect(report.models_used).toEqual({ section: 1, component_input_text: 1 });
  });

  it('reports unimplemented models and keeps their nodes', () => {
    const { nodes, report } = readOntologyFile(
      [
        `INSERT INTO jer_dd ("terminoID", parent, modelo, esmodelo, term) VALUES`,
        `('dd6', NULL, NULL, 'si', '{"lg-spa": "section"}'),`,
        `('dd7', NULL, NULL, 'si', '{"lg-eng": "component_iri"}'),`,
        `('oh1', NULL, 'dd6', 'no', '{}'), ('oh2', 'oh1', 'dd7', 'no', '{}');`,
      ].join('\n'),
      { tld: 'oh' },
    );
    expect(nodes.map((n) => n.model)).toEqual(['section', 'component_iri']);
    expect(report.models_not_implemented).toEqual({ component_iri: 1 });
    expect(report.nodes_per_tld).toEqual({ dd: 2, oh: 2 });
  });
});
