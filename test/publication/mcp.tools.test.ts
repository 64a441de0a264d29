import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { normalizeWord, plainWords } from '../helpers/text-oracle.js';
import { connectMcp, type McpSession, textOf } from './mcp-client.js';

const TOOLS = [
  'list_databases',
  'get_schema',
  'search_records',
  'get_record',
  'count_records',
  'get_facets',
  'fulltext_search',
  'get_text_fragment',
  'get_av_fragment',
  'get_av_indexation_fragment',
];

describe.each(engineCases())('MCP tools answer as the REST routes on $engine', (c) => {
  let s: TestServer;
  let mcp: McpSession;
  /** A word of interview 1's transcription, long enough for both engines' full-text indexes. */
  let word: string;
  let locator: { section_id: number; tag_id: number };
  const rest = async (path: string) => {
    const res = await s.get(`/${c.db}${path}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    return res.json;
  };

  beforeAll(async () => {
    s = await startTestServer(c);
    mcp = await connectMcp(`${s.base}/mcp`);
    const direct = await c.openDirect();
    try {
      const [row] = await direct.query<{ transcription: string }>(
        'SELECT transcription FROM interview WHERE section_id = 1',
      );
      word = plainWords(row!.transcription)
        .map(normalizeWord)
        .find((w) => w.length >= 6)!;
      const ts = await direct.query<{ indexation: string }>(
        'SELECT indexation FROM ts_themes WHERE indexation IS NOT NULL ORDER BY section_id',
      );
      const first = JSON.parse(ts[0]!.indexation)[0];
      locator = { section_id: Number(first.section_id), tag_id: Number(first.tag_id) };
    } finally {
      await direct.close();
    }
  });
  afterAll(async () => {
    await mcp.close();
    await s.close();
  });

  it('lists every tool, read-only, each with an input and an output schema', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      if (tool.name !== 'list_databases') expect(tool.inputSchema.properties, tool.name).toHaveProperty('db');
    }
    const search = tools.find((t) => t.name === 'search_records')!;
    // Bounds are documented from query/bounds.ts, the numbers REST validates against.
    expect(search.inputSchema.properties!.limit).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 1000,
    });
    expect(JSON.stringify(search.inputSchema.properties!.db)).toContain(c.db);
  });

  it('list_databases and get_schema match /databases, /tables and /tables/{table}', async () => {
    const dbs = await mcp.data('list_databases');
    expect(dbs).toEqual({
      databases: (await s.get('/databases')).json.data.map((d: { name: string }) => ({ name: d.name })),
      default_db: c.db,
    });
    expect(await mcp.data('get_schema')).toEqual({ db: c.db, tables: (await rest('/tables')).data });
    const table = (await mcp.data('get_schema', { table: 'interview' })).table as Record<string, unknown>;
    expect(table).toEqual({
      ...(await rest('/tables/interview')).data,
      fulltext_columns: ['abstract', 'transcription'],
    });
  });

  it('search_records: structured filters give the rows of the bracketed REST filters', async () => {
    const got = await mcp.data('search_records', {
      table: 'interview',
      filters: [
        { field: 'section_id', op: 'in', value: [1, 2, 3] },
        { field: 'lang', op: 'eq', value: 'lg-spa' },
      ],
    });
    const expected = await rest(
      '/tables/interview/records?filter[section_id][in]=1%7C2%7C3&filter[lang]=lg-spa',
    );
    expect(got.data).toEqual(expected.data);
    expect((got.data as unknown[]).length).toBe(3);
    expect(got).toMatchObject({ db: c.db, table: 'interview', pagination: expected.pagination });
  });

  it('search_records: sort, fields (array or string), lang, paging and count as on REST', async () => {
    const query =
      'sort=-date,section_id&fields=section_id,lang,date,title&lang=lg-eng&limit=7&offset=7&count=true';
    const expected = await rest(`/tables/interview/records?${query}`);
    for (const fields of [['section_id', 'lang', 'date', 'title'], 'section_id,lang,date,title']) {
      const got = await mcp.data('search_records', {
        table: 'interview',
        sort: ['-date', 'section_id'],
        fields,
        lang: 'lg-eng',
        limit: 7,
        offset: 7,
        count: true,
        filters: [{ field: 'title', op: 'is_not_null' }],
      });
      expect(got.data).toEqual(expected.data);
      // REST says "next page" in a Link header; MCP says it in pagination.next_offset.
      expect(got.pagination).toEqual({ ...expected.pagination, next_offset: 14 });
    }
    const last = await mcp.data('search_records', { table: 'interview', lang: 'lg-eng', offset: 1000 });
    expect(last.pagination).toEqual({ limit: 100, offset: 1000 });
  });

  it('search_records and get_record resolve relations like resolve_relations / resolve_inverse_relations', async () => {
    const rel = { informant: 'informant' };
    const got = await mcp.data('search_records', {
      table: 'interview',
      lang: 'lg-spa',
      limit: 10,
      relations: { resolve_relations: rel },
    });
    const expected = await rest(
      `/tables/interview/records?lang=lg-spa&limit=10&resolve_relations=${encodeURIComponent(JSON.stringify(rel))}`,
    );
    expect(got.data).toEqual(expected.data);
    const inverse = await mcp.data('search_records', {
      table: 'informant',
      limit: 5,
      relations: { resolve_inverse_relations: true },
    });
    expect(inverse.data).toEqual(
      (await rest('/tables/informant/records?limit=5&resolve_inverse_relations=true')).data,
    );
    const record = await mcp.data('get_record', {
      table: 'interview',
      id: 1,
      lang: 'lg-eng',
      relations: { resolve_relations: 'auto' },
    });
    expect(record.data).toEqual(
      (await rest('/tables/interview/records/1?lang=lg-eng&resolve_relations=auto')).data,
    );
  });

  it('get_record returns every language variant with meta, as /records/{id}', async () => {
    const expected = await rest('/tables/interview/records/7');
    const got = await mcp.data('get_record', { table: 'interview', id: 7 });
    expect(got).toEqual({
      db: c.db,
      table: 'interview',
      data: expected.data,
      meta: { section_id: 7, languages: expected.meta.languages },
    });
    const one = await mcp.data('get_record', {
      table: 'interview',
      id: 7,
      lang: 'lg-eng',
      fields: ['title'],
    });
    expect(one.data).toEqual((await rest('/tables/interview/records/7?lang=lg-eng&fields=title')).data);
  });

  it('count_records gives the total of count=true', async () => {
    const filters = [{ field: 'lang', value: 'lg-spa' }];
    const got = await mcp.data('count_records', { table: 'interview', filters });
    const expected = await rest('/tables/interview/records?filter[lang]=lg-spa&limit=0&count=true');
    expect(got).toEqual({ db: c.db, table: 'interview', total: expected.pagination.total });
    expect(got.total).toBeGreaterThan(0);
  });

  it('fulltext_search returns the rows, relevance and fragments of /search', async () => {
    const got = await mcp.data('fulltext_search', {
      table: 'interview',
      q: word,
      lang: 'lg-cat',
      fields: ['section_id', 'lang', 'title'],
      limit: 5,
      count: true,
    });
    const expected = await rest(
      `/tables/interview/search?q=${encodeURIComponent(word)}&lang=lg-cat&fields=section_id,lang,title&limit=5&count=true`,
    );
    expect(got.data).toEqual(expected.data);
    expect((got.data as unknown[]).length).toBeGreaterThan(0);
    expect((got.pagination as { total: number }).total).toBe(expected.pagination.total);
  });

  it('get_text_fragment and get_av_fragment match /fragments and /av-fragments', async () => {
    const text = await mcp.data('get_text_fragment', {
      table: 'interview',
      id: 1,
      terms: word,
      max_occurrences: 3,
    });
    const textRest = await rest(
      `/tables/interview/records/1/fragments?terms=${encodeURIComponent(word)}&max_occurrences=3`,
    );
    expect(text).toEqual({
      db: c.db,
      table: 'interview',
      data: textRest.data,
      meta: { section_id: 1, terms: word },
    });
    expect((text.data as unknown[]).length).toBeGreaterThan(0);
    const av = await mcp.data('get_av_fragment', { table: 'interview', id: 1, terms: word, lang: 'lg-cat' });
    const avRest = await rest(
      `/tables/interview/records/1/av-fragments?terms=${encodeURIComponent(word)}&lang=lg-cat`,
    );
    expect(av.data).toEqual(avRest.data);
  });

  it("accepts the reference implementation's argument names, and says so in the descriptions", async () => {
    const byId = await mcp.data('get_record', { table: 'interview', id: 7 });
    expect(await mcp.data('get_record', { table: 'interview', section_id: 7 })).toEqual(byId);
    const neither = await mcp.call('get_record', { table: 'interview' });
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toMatch(/needs the record id, as id or section_id/);
    const clash = await mcp.call('get_record', { table: 'interview', id: 7, section_id: 8 });
    expect(clash.isError).toBe(true);
    // count_records with q: the full-text count of /search?count=true, filters and lang included.
    const counted = await mcp.data('count_records', { table: 'interview', q: word, lang: 'lg-cat' });
    const search = await rest(
      `/tables/interview/search?q=${encodeURIComponent(word)}&lang=lg-cat&limit=0&count=true`,
    );
    expect(counted).toEqual({ db: c.db, table: 'interview', total: search.pagination.total });
    expect(counted.total).toBeGreaterThan(0);
    // get_av_fragment without table: the transcription table (AV_TABLE, interview here).
    const av = await mcp.data('get_av_fragment', { id: 1, terms: word, lang: 'lg-cat' });
    const avRest = await rest(
      `/tables/interview/records/1/av-fragments?terms=${encodeURIComponent(word)}&lang=lg-cat`,
    );
    expect(av).toMatchObject({ table: 'interview', data: avRest.data });
    const { tools } = await mcp.client.listTools();
    const described = (name: string) => tools.find((t) => t.name === name)!.description!;
    expect(described('get_record')).toMatch(/section_id/);
    expect(described('count_records')).toMatch(/\bq\b/);
    expect(described('get_av_fragment')).toMatch(/table may be left out/);
  });

  it('get_av_indexation_fragment matches /av-indexation-fragment', async () => {
    const got = await mcp.data('get_av_indexation_fragment', locator);
    const expected = await rest(
      `/av-indexation-fragment?section_id=${locator.section_id}&tag_id=${locator.tag_id}`,
    );
    const { response_time_ms: _, ...meta } = expected.meta;
    expect(got).toEqual({ db: c.db, data: expected.data, meta });
    expect(got.meta).toMatchObject({ passage: 'index' });
  });

  it('uses the first configured database when db is left out', async () => {
    const args = { table: 'interview', fields: 'section_id,lang', limit: 3 };
    const implicit = await mcp.data('search_records', args);
    expect(implicit.db).toBe(c.db);
    expect(implicit).toEqual(await mcp.data('search_records', { ...args, db: c.db }));
  });

  it('also gives the answer as text, after a one-line summary, for clients that ignore structuredContent', async () => {
    const result = await mcp.call('count_records', { table: 'interview' });
    const [summary, json] = (result.content[0] as { text: string }).text.split('\n');
    expect(summary).toMatch(/^\d+ row\(s\) of interview match\.$/);
    expect(JSON.parse(json!)).toEqual(result.structuredContent);
  });
});
