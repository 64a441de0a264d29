/**
 * Two server processes' worth of state on one PostgreSQL database (two apps, each with its own
 * permissions cache and pool): a session opened on one works on the other, a record created on
 * one is read on the other, and a profile's security access saved on one changes the user's
 * access on the other at its next request, and an ontology change written through one side's
 * database connection is what the other serves next, without a restart. PostgreSQL only: PGlite
 * is one process's database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningWorkServer } from '../../src/work/server.js';
import { workEngineCases } from '../helpers/work-engines.js';
import { insertLoginUser } from '../helpers/work-permissions.js';
import {
  instancesBrowser,
  startTwoInstances,
  TEST_ROOT_PASSWORD,
  type TwoInstances,
} from '../helpers/work-server.js';

const postgres = workEngineCases().filter((c) => c.engine === 'postgres');

describe.skipIf(postgres.length === 0)('two instances on one PostgreSQL database', () => {
  let two: TwoInstances;
  let a: RunningWorkServer;
  let b: RunningWorkServer;

  beforeAll(async () => {
    two = await startTwoInstances(postgres[0]!);
    ({ a, b } = two);
    await insertLoginUser(a.db, 5, {
      username: 'cata',
      password: 'cataloguer password',
      profile: 2,
      projects: [1],
    });
  });
  afterAll(async () => {
    await two?.close();
  });

  it('shares sessions, records and permission changes', async () => {
    const root = instancesBrowser();
    expect(
      (
        await root.post(a.url, {
          dd_api: 'dd_utils_api',
          action: 'login',
          options: { username: 'root', auth: TEST_ROOT_PASSWORD },
        })
      ).status,
    ).toBe(200);
    const cata = instancesBrowser();
    expect(
      (
        await cata.post(b.url, {
          dd_api: 'dd_utils_api',
          action: 'login',
          options: { username: 'cata', auth: 'cataloguer password' },
        })
      ).status,
    ).toBe(200);

    // Created through A, read through B by a session B opened.
    const created = await root.post(a.url, { action: 'create', source: { section_tipo: 'oh1' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const read = await cata.post(b.url, {
      action: 'read',
      source: { section_tipo: 'oh1', mode: 'list' },
      sqo: { section_tipo: ['oh1'] },
    });
    expect(read.status).toBe(200);
    expect(read.body.data.data[0].entries.map((e: { section_id: number }) => e.section_id)).toContain(
      created.body.data,
    );
    // Root's session, opened on A, works on B too.
    expect(
      (await root.post(b.url, { action: 'count', sqo: { section_tipo: ['oh1'] } })).body.data.total,
    ).toBe(1);

    // The Cataloguer profile loses oral history, saved through A: B refuses the next read.
    const saved = await root.post(a.url, {
      action: 'save',
      source: { section_tipo: 'dd234', section_id: 2, tipo: 'dd774' },
      data: {
        changed_data: [{ action: 'set_data', value: [{ tipo: 'rsc197', section_tipo: 'rsc197', value: 2 }] }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const refused = await cata.post(b.url, {
      action: 'read',
      source: { section_tipo: 'oh1', mode: 'list' },
      sqo: { section_tipo: ['oh1'] },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('perm.denied');
  });

  it('serves an ontology change written on one side from the other within a second, without restart', async () => {
    const root = instancesBrowser();
    await root.post(b.url, {
      dd_api: 'dd_utils_api',
      action: 'login',
      options: { username: 'root', auth: TEST_ROOT_PASSWORD },
    });
    const fields = async () => {
      const answer = await root.post(b.url, {
        action: 'get_section_elements_context',
        options: { ar_section_tipo: ['oh1'] },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return new Map<string, string>(
        answer.body.data.map((c: { tipo: string; label: string }) => [c.tipo, c.label] as const),
      );
    };
    expect((await fields()).get('oh14')).toBe('Code');

    // An operator's SQL through A's connection: a label renamed, a component added to a section.
    const written = Date.now();
    await a.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE dd_ontology SET term = term || '{"lg-eng": "Interview code"}' WHERE tipo = 'oh14'`,
      );
      await tx.query(
        `INSERT INTO dd_ontology (tipo, parent, term, model, order_number, tld)
         VALUES ('oh90', 'oh2', '{"lg-eng": "Place"}', 'component_input_text', 99, 'oh')`,
      );
    });
    let seen = await fields();
    while (seen.get('oh14') !== 'Interview code' && Date.now() - written < 2000) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await fields();
    }
    expect(seen.get('oh14')).toBe('Interview code');
    expect(seen.get('oh90')).toBe('Place');
    expect(Date.now() - written).toBeLessThan(1000);
    // A's next request serves the same version.
    expect(a.ontology.latest().node('oh90')).toBeUndefined();
    const onA = await root.post(a.url, {
      action: 'get_element_context',
      source: { tipo: 'oh90', section_tipo: 'oh1' },
    });
    expect(onA.body.data[0]).toMatchObject({ tipo: 'oh90', label: 'Place' });
  });
});
