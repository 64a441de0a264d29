/**
 * Exporting a section (docs/import-export.md, "Exporting a section") on both engines: the Dédalo
 * CSV of seeded interviews (every model of oh1 and the informants of rsc197, cell by cell), the
 * plain CSV for people (labels in the data language, display values, accents and BOM, the
 * formula prefix), the list's search applied, what a cataloguer may not read left out
 * (components and records), the download's headers and refusals, and the CLI writing the same
 * file as the download.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExportCommand } from '../../../src/work/cli-export.js';
import { openCsv } from '../../../src/work/collections/csv-rows.js';
import { cellKindOf, decodeCell, parseHeaderCell } from '../../../src/work/collections/dedalo-csv-format.js';
import { loadOntology } from '../../../src/work/ontology/load-ontology.js';
import { workEngineCases } from '../../helpers/work-engines.js';
import { insertLoginUser, insertProfile, insertProject } from '../../helpers/work-permissions.js';
import { date, insertRecordValues, locator, text } from '../../helpers/work-records.js';
import {
  rootBrowser,
  startTestWorkServer,
  type WorkBrowser,
  type WorkServerHandle,
} from '../../helpers/work-server.js';

const ontology = loadOntology();

const cookieOf = (b: WorkBrowser) => [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The body as UTF-8 text, a BOM kept as U+FEFF. */
  text: string;
}

describe.each(workEngineCases())('exporting a section ($engine)', (engine) => {
  let work: WorkServerHandle;
  let root: WorkBrowser;
  let cataloguer: WorkBrowser;

  const download = async (path: string, browser?: WorkBrowser): Promise<Download> => {
    const res = await fetch(`${work.server.url}/export/${path}`, {
      headers: browser ? { cookie: cookieOf(browser) } : {},
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
  };
  const refusal = async (path: string, browser?: WorkBrowser) => {
    const answer = await download(path, browser);
    return [answer.status, JSON.parse(answer.text).error.code];
  };

  beforeAll(async () => {
    work = await startTestWorkServer(engine);
    const db = work.server.db;
    await insertProject(db, 2);
    // A cataloguer of project 1 who reads the interviews' code, title and informants, not the
    // abstract, the date or the rest; and the informants' names.
    await insertProfile(db, 10, [
      { tipo: 'oh1', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh14', section_tipo: 'oh1', value: 2 },
      { tipo: 'oh16', section_tipo: 'oh1', value: 1 },
      { tipo: 'oh24', section_tipo: 'oh1', value: 1 },
      { tipo: 'rsc197', section_tipo: 'rsc197', value: 1 },
      { tipo: 'rsc85', section_tipo: 'rsc197', value: 1 },
    ]);
    await insertLoginUser(db, 11, {
      username: 'cataloguer',
      password: 'pw cataloguer',
      profile: 10,
      projects: [1],
    });
    await insertRecordValues(db, ontology, 'rsc197', 1, { rsc85: [text('Àngela')], rsc86: [text('Puig')] });
    await insertRecordValues(db, ontology, 'rsc197', 2, { rsc85: [text('Jordi')] });
    await insertRecordValues(
      db,
      ontology,
      'oh1',
      1,
      {
        oh14: [text('OH-001')],
        oh16: [text('La guerra; "civil"', 'lg-spa', 1), text('The war', 'lg-eng', 2)],
        oh23: [text('Línea uno\nlínea dos')],
        oh24: [locator('oh24', 'rsc197', 1), locator('oh24', 'rsc197', '2')],
        oh29: [date(1936, 7, 18)],
        oh32: [locator('oh32', 'dd64', 1)],
      },
      [1],
    );
    await insertRecordValues(db, ontology, 'oh1', 2, { oh14: [text('=HYPERLINK("http://x")')] }, [2]);
    await insertRecordValues(db, ontology, 'oh1', 3, { oh14: [text('OH-003')], oh29: [date(1940)] }, [1]);
    root = await rootBrowser(work);
    cataloguer = work.browser();
    expect((await cataloguer.login('cataloguer', 'pw cataloguer')).status).toBe(200);
  });
  afterAll(async () => {
    await work?.stop();
  });

  it('Dédalo CSV: section_id and the tipos in ontology order, each cell the encoded stored value', async () => {
    const file = await download('oh1.csv?format=dedalo', root);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="oh1.csv"');
    expect(file.bytes[0]).not.toBe(0xef); // no BOM: a file for a re-import
    const oh24 = JSON.stringify([
      { type: 'dd151', section_id: '1', section_tipo: 'rsc197', from_component_tipo: 'oh24' },
      { type: 'dd151', section_id: '2', section_tipo: 'rsc197', from_component_tipo: 'oh24' },
    ]);
    const oh22 = (p: number) =>
      JSON.stringify([
        { type: 'dd675', section_id: String(p), section_tipo: 'dd153', from_component_tipo: 'oh22' },
      ]);
    const oh32 = JSON.stringify([
      { type: 'dd151', section_id: '1', section_tipo: 'dd64', from_component_tipo: 'oh32' },
    ]);
    const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
    expect(file.text).toBe(
      [
        'section_id;oh14;oh16;oh23;oh24;oh25;oh17;oh29;oh22;oh32',
        `1;OH-001;${q(JSON.stringify({ 'lg-spa': ['La guerra; "civil"'], 'lg-eng': ['The war'] }))};"Línea uno\nlínea dos";${q(oh24)};;;1936-07-18;${q(oh22(1))};${q(oh32)}`,
        `2;"=HYPERLINK(""http://x"")";;;;;;;${q(oh22(2))};`,
        `3;OH-003;;;;;;1940;${q(oh22(1))};`,
        '',
      ].join('\n'),
    );
  });

  it('the collection reader reads the Dédalo file back to the stored values', async () => {
    const file = await download('oh1.csv?format=dedalo', root);
    const reader = await openCsv(Readable.from([file.bytes]));
    expect(reader.separator).toBe(';');
    const rows: string[][] = [];
    for await (const row of reader.rows) rows.push(row.cells);
    const header = rows[0]!.map(parseHeaderCell);
    expect(header[0]).toEqual({ kind: 'section_id' });
    const decoded = rows.slice(1).map((cells) =>
      Object.fromEntries(
        header.flatMap((column, i) => {
          if (column.kind !== 'component') return [];
          const cell = decodeCell(cellKindOf(ontology.node(column.tipo)!.model), cells[i]!);
          return cell.empty ? [] : [[column.tipo, Object.fromEntries(cell.byLang)]];
        }),
      ),
    );
    expect(rows.map((r) => r[0])).toEqual(['section_id', '1', '2', '3']);
    expect(decoded[0]).toMatchObject({
      oh14: { null: ['OH-001'] },
      oh16: { 'lg-spa': ['La guerra; "civil"'], 'lg-eng': ['The war'] },
      oh23: { null: ['Línea uno\nlínea dos'] },
      oh24: {
        null: [
          { section_tipo: 'rsc197', section_id: '1' },
          { section_tipo: 'rsc197', section_id: '2' },
        ],
      },
      oh29: { null: [{ start: { year: 1936, month: 7, day: 18 } }] },
      oh32: { null: [{ section_tipo: 'dd64', section_id: '1' }] },
    });
    // A formula is data here: the cell comes back as it was typed.
    expect(decoded[1]!.oh14).toEqual({ null: ['=HYPERLINK("http://x")'] });
  });

  it('plain CSV: BOM, labels in the data language, display values, formula cells prefixed', async () => {
    const file = await download('oh1.csv?format=plain&lang=lg-spa', root);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="oh1-plain-spa.csv"');
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = file.text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'section_id,Código,Título,Resumen,Informantes,Audiovisual,Imagen,Fecha de la entrevista,Proyectos,Publicable',
    );
    // A line break inside a value is kept, the cell quoted: one record, one row.
    expect(lines[1]).toBe(
      '1,OH-001,"La guerra; ""civil""","Línea uno\nlínea dos",Àngela | Jordi,,,1936-07-18,Proyecto por defecto,Sí',
    );
    // A formula-looking value gets a leading quote; the spreadsheet shows it as text.
    expect(lines[2]).toBe(`2,"'=HYPERLINK(""http://x"")",,,,,,,project 2,`);
    expect(lines[3]).toBe('3,OH-003,,,,,,1940,Proyecto por defecto,');
    expect(lines[4]).toBe('');
    // In English: the English title and labels; the title falls back to another language where
    // a record has none in it (a list's rule).
    const english = (await download('oh1.csv?format=plain&lang=lg-eng', root)).text.slice(1).split('\r\n');
    expect(english[0]).toBe(
      'section_id,Code,Title,Abstract,Informants,Audiovisual,Image,Interview date,Projects,Publishable',
    );
    expect(english[1]).toContain('1,OH-001,The war,');
    expect(english[1]).toMatch(/,Yes$/);
  });

  it("the list's search selects the records; its order and limit do not apply", async () => {
    const sqo = {
      section_tipo: ['oh1'],
      filter: { $and: [{ q: 'OH-00*', path: [{ section_tipo: 'oh1', component_tipo: 'oh14' }] }] },
      order: [{ direction: 'DESC', path: [{ component_tipo: 'section_id' }] }],
      limit: 1,
    };
    const file = await download(`oh1.csv?format=dedalo&sqo=${encodeURIComponent(JSON.stringify(sqo))}`, root);
    expect(file.status).toBe(200);
    expect(file.text.split('\n').map((l) => l.split(';')[0])).toEqual([
      'section_id',
      '1',
      'línea dos"',
      '3',
      '',
    ]);
  });

  it('a cataloguer gets only the components and records they may read', async () => {
    const dedalo = await download('oh1.csv?format=dedalo', cataloguer);
    expect(dedalo.status).toBe(200);
    const rows = dedalo.text.split('\n');
    expect(rows[0]).toBe('section_id;oh14;oh16;oh24');
    // Record 2 is in project 2, not theirs.
    expect(rows.slice(1).map((r) => r.split(';')[0])).toEqual(['1', '3', '']);
    const plain = (await download('oh1.csv?format=plain&lang=lg-eng', cataloguer)).text
      .slice(1)
      .split('\r\n');
    expect(plain).toEqual([
      'section_id,Code,Title,Informants',
      '1,OH-001,The war,Àngela | Jordi',
      '3,OH-003,,',
      '',
    ]);
    // A section their profile does not open, or a search through one: refused.
    expect(await refusal('rsc170.csv', cataloguer)).toEqual([403, 'perm.denied']);
    const through = {
      filter: {
        $and: [
          {
            q: 'x',
            path: [
              { section_tipo: 'oh1', component_tipo: 'oh25' },
              { section_tipo: 'rsc167', component_tipo: 'rsc54' },
            ],
          },
        ],
      },
    };
    expect(await refusal(`oh1.csv?sqo=${encodeURIComponent(JSON.stringify(through))}`, cataloguer)).toEqual([
      403,
      'perm.denied',
    ]);
  });

  it('the other models: no password ever, permission tables only in the Dédalo file, media by name', async () => {
    const users = await download('dd128.csv?format=dedalo', root);
    expect(users.status).toBe(200);
    const [header, ...rows] = users.text.split('\n');
    // Every user component but the password, whose stored hash is nobody's business.
    expect(header).toBe('section_id;dd132;dd452;dd134;dd1725;dd170;dd244;dd131');
    expect(users.text).not.toContain('argon2');
    const cataloguerRow = rows.find((r) => r.startsWith('11;'))!;
    expect(cataloguerRow.startsWith('11;cataloguer;;;')).toBe(true);
    const plainUsers = (await download('dd128.csv?format=plain&lang=lg-eng', root)).text
      .slice(1)
      .split('\r\n');
    expect(plainUsers[0]).toBe('section_id,Username,Full name,Email,Profile,Projects,Global admin,Active');
    // The select and the project filter show the target's name, the yes/no its label.
    expect(plainUsers.find((r) => r.startsWith('11,'))).toBe(
      '11,cataloguer,,,profile 10,Default project,,Yes',
    );

    const profiles = await download('dd234.csv?format=dedalo', root);
    expect(profiles.text.split('\n')[0]).toBe('section_id;dd237;dd774');
    expect(profiles.text).toContain('""tipo"":""oh14"",""section_tipo"":""oh1"",""value"":2');
    const plainProfiles = (await download('dd234.csv?format=plain', root)).text.slice(1).split('\r\n');
    expect(plainProfiles[0]).toBe('section_id,Name');

    await insertRecordValues(work.server.db, ontology, 'rsc170', 5, {
      rsc29: [{ id: 1, lang: 'lg-nolan', value: { name: 'molí.jpg', size: 10, key_dir: 'x', path: 'p' } }],
    });
    await insertRecordValues(work.server.db, ontology, 'ts1', 7, {
      hierarchy25: [text('Barcelona', 'lg-spa')],
      hierarchy36: [locator('hierarchy36', 'ts1', 8, 'dd47')],
    });
    await insertRecordValues(work.server.db, ontology, 'ts1', 8, {
      hierarchy25: [text('Catalunya', 'lg-spa')],
    });
    const images = (await download('rsc170.csv?format=plain', root)).text.slice(1).split('\r\n');
    expect(images[1]).toBe('5,molí.jpg');
    const terms = (await download('ts1.csv?format=plain&lang=lg-spa', root)).text.slice(1).split('\r\n');
    expect(terms[1]).toBe('7,Barcelona,Catalunya,,');
  });

  it('refuses without a session and on bad parameters, before any byte of a file', async () => {
    expect(await refusal('oh1.csv')).toEqual([401, 'auth.not_logged']);
    expect(await refusal('oh1.csv?format=xlsx', root)).toEqual([400, 'export.invalid_format']);
    expect(await refusal('oh1.csv?format=plain&lang=lg-xxx', root)).toEqual([400, 'lang.not_allowed']);
    expect(await refusal('oh1.csv?sqo=%7Bnot%20json', root)).toEqual([400, 'search.invalid_sqo']);
    expect(await refusal(`oh1.csv?sqo=${encodeURIComponent('{"limit":"x"}')}`, root)).toEqual([
      400,
      'search.invalid_sqo',
    ]);
    expect(await refusal(`oh1.csv?sqo=${encodeURIComponent('{"section_tipo":"rsc197"}')}`, root)).toEqual([
      400,
      'search.invalid_sqo',
    ]);
    expect(await refusal('oh14.csv', root)).toEqual([404, 'element.unknown_tipo']);
    expect(await refusal('zz999.csv', root)).toEqual([404, 'element.unknown_tipo']);
    expect(await refusal('oh1.txt', root)).toEqual([404, 'http.not_found']);
  });

  it('the CLI writes the same Dédalo file as the download, to a file or to stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-cli-'));
    try {
      const out = join(dir, 'oh1.csv');
      const result = await runExportCommand(work.server.db, {
        section: 'oh1',
        format: 'dedalo',
        lang: 'lg-eng',
        out,
      });
      expect(result).toEqual({ exitCode: 0, output: `3 records of oh1 written to ${out} (dedalo).` });
      const downloaded = await download('oh1.csv?format=dedalo', root);
      expect(readFileSync(out, 'utf8')).toBe(downloaded.text);
      const chunks: Buffer[] = [];
      const sink = () =>
        new Writable({
          write(chunk, _encoding, done) {
            chunks.push(Buffer.from(chunk));
            done();
          },
        });
      const plain = await runExportCommand(
        work.server.db,
        { section: 'rsc197', format: 'plain', lang: 'lg-eng', out: null },
        sink,
      );
      expect(plain.exitCode).toBe(0);
      expect(Buffer.concat(chunks).toString('utf8')).toBe(
        '\ufeffsection_id,Name,Surname,Date of birth,Full name\r\n1,Àngela,Puig,,\r\n2,Jordi,,,\r\n',
      );
      const unknown = await runExportCommand(
        work.server.db,
        { section: 'nope1', format: 'dedalo', lang: 'lg-eng', out: null },
        sink,
      );
      expect(unknown.exitCode).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
