import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';
import { connectMcp, type McpSession, textOf } from './mcp-client.js';

interface Problem {
  status: number;
  title: string;
  detail: string;
  errors?: { name: string; detail: string }[];
}

describe.each(engineCases())(
  'MCP tool failures are isError results with the REST wording on $engine',
  (c) => {
    let s: TestServer;
    let mcp: McpSession;
    const restProblem = async (path: string): Promise<Problem> => {
      const res = await s.get(`/${path.startsWith('/') ? '' : `${c.db}/`}${path.replace(/^\//, '')}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      return res.json;
    };
    /** The tool's error text must carry the problem's status, detail and every errors entry. */
    async function expectSameProblem(tool: string, args: Record<string, unknown>, restPath: string) {
      const result = await mcp.call(tool, args);
      const text = textOf(result);
      expect(result.isError, text.slice(0, 300)).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const problem = await restProblem(restPath);
      expect(text).toContain(`${problem.title} (${problem.status}): ${problem.detail}`);
      for (const e of problem.errors ?? []) expect(text).toContain(`- ${e.name}: ${e.detail}`);
      return text;
    }

    beforeAll(async () => {
      s = await startTestServer(c);
      mcp = await connectMcp(`${s.base}/mcp`);
    });
    afterAll(async () => {
      await mcp.close();
      await s.close();
    });

    it('limit 1001 fails with the detail of ?limit=1001', async () => {
      const text = await expectSameProblem(
        'search_records',
        { table: 'interview', limit: 1001 },
        'tables/interview/records?limit=1001',
      );
      expect(text).toContain('limit must be from 0 to 1000, got 1001');
    });

    it('every bad argument is named at once, as REST lists every bad parameter', async () => {
      const text = await expectSameProblem(
        'fulltext_search',
        { table: 'interview', q: 'x'.repeat(513), limit: 2.5, lang: 'english' },
        `tables/interview/search?q=${'x'.repeat(513)}&limit=2.5&lang=english`,
      );
      expect(text).toMatch(/^Bad Request \(400\): 3 parameters are invalid/);
    });

    it('an unknown column in a filter, sort or fields names the columns there are', async () => {
      await expectSameProblem(
        'search_records',
        { table: 'interview', filters: [{ field: 'nope', value: 1 }] },
        'tables/interview/records?filter[nope][eq]=1',
      );
      await expectSameProblem(
        'search_records',
        { table: 'interview', sort: '-nope', fields: ['title', 'zz'] },
        'tables/interview/records?sort=-nope&fields=title,zz',
      );
      await expectSameProblem(
        'count_records',
        { table: 'interview', filters: [{ field: 'section_id', op: 'gt', value: 'abc' }] },
        'tables/interview/records?filter[section_id][gt]=abc&limit=0&count=true',
      );
    });

    it('unknown database, unknown table and a missing record are 404 results, not protocol errors', async () => {
      const db = await expectSameProblem('get_schema', { db: 'nope' }, '/nope/tables');
      expect(db).toContain('list_databases');
      await expectSameProblem('search_records', { table: 'nope' }, 'tables/nope/records');
      await expectSameProblem('get_schema', { table: 'nope' }, 'tables/nope');
      await expectSameProblem(
        'get_record',
        { table: 'interview', id: 99999 },
        'tables/interview/records/99999',
      );
      await expectSameProblem(
        'get_text_fragment',
        { table: 'interview', id: 99999, terms: 'casa' },
        'tables/interview/records/99999/fragments?terms=casa',
      );
      await expectSameProblem(
        'get_av_indexation_fragment',
        { section_id: 99999 },
        'av-indexation-fragment?section_id=99999',
      );
    });

    it('fragment and relation arguments are judged by the REST validators', async () => {
      await expectSameProblem(
        'get_av_fragment',
        { table: 'interview', id: 0, terms: 'casa' },
        'tables/interview/records/0/av-fragments?terms=casa',
      );
      await expectSameProblem(
        'get_text_fragment',
        { table: 'interview', id: 1, terms: 'casa', column: 'section_id', max_characters: 5 },
        'tables/interview/records/1/fragments?terms=casa&column=section_id&max_characters=5',
      );
      await expectSameProblem(
        'get_av_indexation_fragment',
        { section_id: 1, tc_in: 20, tc_out: 10 },
        'av-indexation-fragment?section_id=1&tc_in=20&tc_out=10',
      );
      const rel = { nope: 'informant' };
      await expectSameProblem(
        'get_record',
        { table: 'interview', id: 1, relations: { resolve_relations: rel } },
        `tables/interview/records/1?resolve_relations=${encodeURIComponent(JSON.stringify(rel))}`,
      );
      const inverse = { oh1: 'nope' };
      await expectSameProblem(
        'search_records',
        { table: 'interview', relations: { resolve_inverse_relations: inverse } },
        `tables/interview/records?resolve_inverse_relations=${encodeURIComponent(JSON.stringify(inverse))}`,
      );
    });

    it('filter shapes only MCP can express are refused, named after the argument', async () => {
      const result = await mcp.call('search_records', {
        table: 'interview',
        filters: [
          { field: 'section_id', op: 'eq', value: [1, 2] },
          { field: 'title', op: 'is_null', value: 'x' },
          { field: 'title', op: 'like' },
          { field: 'title', op: 'in', value: ['a|b'] },
        ],
      });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain('- filters[0].value: an array value needs op in or not_in (op is eq)');
      expect(text).toContain('- filters[1].value: is_null takes no value; leave value out');
      expect(text).toContain('- filters[2].value: op like needs a value');
      expect(text).toContain('- filters[3].value: in / not_in values cannot contain the | character');
    });

    it('unknown arguments and wrong JSON types are refused before anything runs', async () => {
      const typo = await mcp.call('search_records', { table: 'interview', limt: 5 });
      expect(typo.isError).toBe(true);
      expect(textOf(typo)).toMatch(/unknown argument "limt"; this tool accepts db, table, filters, sort/);
      const type = await mcp.call('get_record', { table: 'interview', id: 'seven' });
      expect(type.isError).toBe(true);
      expect(textOf(type)).toMatch(/id/);
      const missing = await mcp.call('fulltext_search', { table: 'interview' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/q/);
    });
  },
);
