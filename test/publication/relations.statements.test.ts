import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Driver } from '../../src/publication/db/types.js';
import { engineCases, startTestServer, type TestServer } from '../helpers/publication-server.js';

/** Wraps the engine so every select/count is recorded (by table) before it runs. */
function countingDriver(log: string[]): (driver: Driver) => Driver {
  return (driver) =>
    new Proxy(driver, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        if (prop === 'select' || prop === 'count') {
          return (db: string, query: { table: string }, ...rest: unknown[]) => {
            log.push(`${String(prop)} ${query.table}`);
            return value.call(target, db, query, ...rest);
          };
        }
        return value.bind(target);
      },
    });
}

const rel = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe.each(engineCases())('relation resolution statements on $engine', (c) => {
  let s: TestServer;
  const log: string[] = [];
  const records = async (query: string, table = 'interview') => {
    log.length = 0;
    const res = await s.get(`/${c.db}/tables/${table}/records${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json;
  };

  beforeAll(async () => {
    s = await startTestServer(c, {}, { wrapDriver: countingDriver(log) });
    // Warm the schema cache (introspection is not a select).
    await s.get(`/${c.db}/tables/interview/records?limit=1`);
  });
  beforeEach(() => {
    log.length = 0;
  });
  afterAll(async () => {
    await s.close();
  });

  it('a page of 100 interviews resolving one column costs one statement for the relation', async () => {
    const body = await records(`?limit=100&resolve_relations=${rel({ informant: 'informant' })}`);
    expect(body.data).toHaveLength(100);
    expect(body.data.every((r: { informant: unknown }) => Array.isArray(r.informant))).toBe(true);
    expect(log).toEqual(['select interview', 'select informant']);
  });

  it('two columns cost one statement each', async () => {
    const body = await records(
      `?limit=100&resolve_relations=${rel({ informant: 'informant', image: 'image' })}`,
    );
    expect(body.data).toHaveLength(100);
    expect(log).toHaveLength(3);
    expect(log[0]).toBe('select interview');
    expect(log.slice(1).sort()).toEqual(['select image', 'select informant']);
  });

  it('nested keys cost one statement per key, whatever the number of rows', async () => {
    await records(
      `?limit=100&resolve_relations=${rel({
        informant: 'informant',
        'informant.dd_relations': 'interview',
        'informant.dd_relations.image': 'image',
      })}`,
    );
    expect(log).toEqual(['select interview', 'select informant', 'select interview', 'select image']);
  });

  it('auto costs one statement per link column and target table', async () => {
    await records('?limit=100&resolve_relations=auto');
    expect(log).toEqual(['select interview', 'select informant']);
  });

  it('inverse resolution costs the schema read plus one statement per target table', async () => {
    await records('?limit=100&resolve_inverse_relations=true', 'informant');
    expect(log).toEqual(['select informant', 'select publication_schema', 'select interview']);
    await records(`?limit=100&resolve_inverse_relations=${rel({ oh1: 'interview' })}`, 'image');
    expect(log).toEqual(['select image', 'select interview']);
  });

  it('the single-record route resolves every variant with one statement', async () => {
    log.length = 0;
    const res = await s.get(
      `/${c.db}/tables/interview/records/1?resolve_relations=${rel({ informant: 'informant' })}`,
    );
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBe(3);
    expect(log).toEqual(['select interview', 'select informant']);
  });

  it('an empty page and a count-only page read no relation targets', async () => {
    await records(
      `?limit=100&filter[section_id]=999999&resolve_relations=${rel({ informant: 'informant' })}`,
    );
    expect(log).toEqual(['select interview']);
    await records(`?limit=0&count=true&resolve_relations=${rel({ informant: 'informant' })}`);
    expect(log).toEqual(['count interview']);
  });
});
