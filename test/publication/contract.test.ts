import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS } from '../../src/publication/openapi/schemas.js';
import {
  type DirectDb,
  engineCases,
  startTestServer,
  type TestServer,
} from '../helpers/publication-server.js';
import { normalizeWord, plainWords } from '../helpers/text-oracle.js';

// Every route's real answers, checked against the schemas the OpenAPI document publishes.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: 'api', components: { schemas: SCHEMAS } });
function check(schema: string, body: unknown): void {
  const validate = ajv.getSchema(`api#/components/schemas/${schema}`)!;
  const ok = validate(body);
  expect(ok, `${schema}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
}

describe.each(engineCases())('responses match their documented schemas on $engine', (c) => {
  let s: TestServer;
  let direct: DirectDb;
  let word: string;
  let indexed: { section_id: number; tag_id: number };
  beforeAll(async () => {
    s = await startTestServer(c);
    direct = await c.openDirect();
    const row = (
      await direct.query<{ transcription: string }>(
        'SELECT transcription FROM interview WHERE section_id = 1',
      )
    )[0]!;
    word = normalizeWord(plainWords(row.transcription)[0]!);
    const ts = await direct.query<{ indexation: string }>(
      'SELECT indexation FROM ts_themes WHERE indexation IS NOT NULL',
    );
    const locator = JSON.parse(ts[0]!.indexation)[0];
    indexed = { section_id: Number(locator.section_id), tag_id: Number(locator.tag_id) };
  });
  afterAll(async () => {
    await s.close();
    await direct.close();
  });

  const t = (path: string) => `/${c.db}/tables${path}`;
  const cases: [string, () => string, string, number][] = [
    ['index', () => '/', 'Index', 200],
    ['databases', () => '/databases', 'DatabaseList', 200],
    ['tables', () => t(''), 'TableList', 200],
    ['table schema', () => t('/interview'), 'TableSchema', 200],
    ['records', () => t('/interview/records?limit=5&count=true'), 'RecordList', 200],
    ['record', () => t('/interview/records/1'), 'SingleRecord', 200],
    ['search', () => t(`/interview/search?q=${word}&limit=5`), 'SearchList', 200],
    ['fragments', () => t(`/interview/records/1/fragments?terms=${word}`), 'TextFragments', 200],
    ['av-fragments', () => t(`/interview/records/1/av-fragments?terms=${word}`), 'AvFragments', 200],
    [
      'av-indexation-fragment',
      () => `/${c.db}/av-indexation-fragment?section_id=${indexed.section_id}&tag_id=${indexed.tag_id}`,
      'IndexationFragment',
      200,
    ],
    ['health', () => '/health', 'Health', 200],
    ['400 problem', () => t('/interview/records?limit=x'), 'Problem', 400],
    ['404 problem', () => t('/nope/records'), 'Problem', 404],
  ];

  it.each(cases)('%s', async (_name, path, schema, status) => {
    const res = await s.get(path());
    expect(res.status, res.text.slice(0, 300)).toBe(status);
    check(schema, res.json);
  });

  it('batch', async () => {
    const res = await s.request(
      'POST',
      `${new URL(s.base).pathname}/batch`,
      { 'Content-Type': 'application/json' },
      JSON.stringify({
        queries: [
          { id: 'a', path: t('/interview/records/1') },
          { id: 'b', path: '/health' },
        ],
      }),
    );
    check('BatchResult', res.json);
    check('SingleRecord', res.json.results[0].data);
    check('Problem', res.json.results[1].problem);
  });
});
