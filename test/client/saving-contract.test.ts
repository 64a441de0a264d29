/**
 * The client's side of the stale-write contract (issue 21 §1) without a browser: the save RQO
 * carries `data.version` only when the field's version is known, a `record.stale_write` refusal
 * becomes the conflict the panel shows, kept changes are applied to a field's entries, which
 * failures count as "the server was not reached", and every saving message exists in English,
 * Spanish and Catalan.
 */
import { describe, expect, it } from 'vitest';
import { momentOf, t, uiLangOf } from '../../client/src/api/i18n.js';
import { ApiError } from '../../client/src/api/rqo-client.js';
import { conflictOf } from '../../client/src/components/conflict.js';
import {
  applyChanges,
  isUnreachable,
  keepable,
  type PendingSave,
  pendingKeyOf,
  saveRqo,
  withKept,
} from '../../client/src/components/pending-saves.js';

const stale = (details: Record<string, unknown>) =>
  new ApiError('Ana changed it', 'record.stale_write', 409, false, undefined, details);

describe('save RQO', () => {
  it('sends the version the change was made on, 0 included, and nothing when it is unknown', () => {
    const changes = [{ action: 'update' as const, id: 1, value: { id: 1, lang: 'lg-nolan', value: 'x' } }];
    expect(saveRqo('oh1', 3, 'oh14', 'component_input_text', 'lg-nolan', changes, undefined, 7).data).toEqual(
      {
        changed_data: changes,
        version: 7,
      },
    );
    expect(saveRqo('oh1', 3, 'oh14', 'component_input_text', 'lg-nolan', changes, undefined, 0).data).toEqual(
      {
        changed_data: changes,
        version: 0,
      },
    );
    expect(saveRqo('oh1', 3, 'oh14', 'component_input_text', 'lg-nolan', changes).data).toEqual({
      changed_data: changes,
    });
  });
});

describe('conflictOf', () => {
  const current_value = {
    tipo: 'oh14',
    section_tipo: 'oh1',
    section_id: 3,
    entries: [{ id: 1, lang: 'lg-nolan', value: 'THEIRS' }],
    version: 5,
  };
  it('takes their value, the version to save over, who and when from the details', () => {
    const at = '2026-11-26T10:02:00.000Z';
    const mine = [{ action: 'update' as const, id: 1, value: { id: 1, value: 'MINE' } }];
    const c = conflictOf(
      stale({
        section_tipo: 'oh1',
        section_id: 3,
        tipo: 'oh14',
        lang: 'lg-nolan',
        your_version: 4,
        current_version: 5,
        changed_by: { user_id: 2, username: 'ana', full_username: 'Ana Pérez' },
        changed_at: at,
        current_value,
      }),
      mine,
    );
    expect(c).toEqual({
      mine,
      theirs: current_value,
      currentVersion: 5,
      who: 'Ana Pérez (ana)',
      when: momentOf(at),
    });
  });

  it('names someone even without a full name, and takes the version from the value if needed', () => {
    expect(conflictOf(stale({ changed_by: { user_id: 2, username: 'ana' }, current_value }), []).who).toBe(
      'ana',
    );
    expect(conflictOf(stale({ changed_by: { user_id: 9 } }), []).who).toBe('#9');
    const none = conflictOf(stale({ current_value }), []);
    expect(none.who).toBe('Another user');
    expect(none.currentVersion).toBe(5);
    expect(none.when).toBe('');
  });
});

describe('kept changes', () => {
  const entries = [
    { id: 1, value: 'a' },
    { id: 2, value: 'b' },
  ];
  it('apply to a field’s entries as the server would', () => {
    expect(applyChanges(entries, [{ action: 'update', id: 2, value: { id: 2, value: 'B' } }])).toEqual([
      { id: 1, value: 'a' },
      { id: 2, value: 'B' },
    ]);
    expect(applyChanges(entries, [{ action: 'remove', id: 1, value: null }])).toEqual([
      { id: 2, value: 'b' },
    ]);
    expect(applyChanges([], [{ action: 'insert', id: null, value: { id: null, value: 'n' } }])).toEqual([
      { id: null, value: 'n' },
    ]);
    expect(applyChanges(entries, [{ action: 'set_data', value: [{ start: { year: 1987 } }] }])).toEqual([
      { start: { year: 1987 } },
    ]);
    expect(entries).toHaveLength(2); // not changed in place
  });

  it('put back in a field carry the version the typing was based on', () => {
    const item = {
      tipo: 'oh14',
      section_tipo: 'oh1',
      section_id: 3,
      entries: [{ id: 1, value: 'a' }],
      version: 9,
    };
    const kept = {
      changes: [{ action: 'update', id: 1, value: { id: 1, value: 'mine' } }],
      version: 7,
    } as PendingSave;
    expect(withKept(item, kept)).toEqual({ ...item, entries: [{ id: 1, value: 'mine' }], version: 7 });
    expect(withKept(item, { ...kept, version: undefined }).version).toBe(9);
  });

  it('are kept per user, record, component and language; passwords and record creation never', () => {
    const key = { userId: 4, sectionTipo: 'oh1', sectionId: 3, tipo: 'oh14', lang: 'lg-nolan' };
    expect(pendingKeyOf(key)).toBe('dd-pending:4/oh1/3/oh14/lg-nolan');
    expect(pendingKeyOf({ ...key, userId: 5 })).not.toBe(pendingKeyOf(key));
    expect(keepable('component_password', [])).toBe(false);
    expect(keepable('component_portal', [{ action: 'add_new_element', value: 'rsc197' }])).toBe(false);
    expect(keepable('component_input_text', [{ action: 'insert', value: 'x' }])).toBe(true);
  });

  it('are retried only when the server was not reached', () => {
    expect(isUnreachable(new ApiError('x', 'network', 0, true))).toBe(true);
    expect(isUnreachable(new ApiError('x', 'unexpected', 502))).toBe(true);
    expect(isUnreachable(new ApiError('x', 'unexpected', 503))).toBe(true);
    expect(isUnreachable(new ApiError('x', 'record.stale_write', 409))).toBe(false);
    expect(isUnreachable(new ApiError('x', 'validation.invalid_value', 400))).toBe(false);
    expect(isUnreachable(new ApiError('x', 'auth.not_logged', 401))).toBe(false);
  });
});

describe('saving messages', () => {
  it('exist in English, Spanish and Catalan, each its own words', () => {
    const keys = [
      'saving',
      'saved',
      'pendingField',
      'restoredField',
      'pendingWhy',
      'retry',
      'keepMine',
      'takeTheirs',
      'theirs',
      'mine',
      'conflictStatus',
    ] as const;
    for (const key of keys) {
      const en = t(key, {}, 'en');
      expect(t(key, {}, 'es')).not.toBe(en);
      expect(t(key, {}, 'ca')).not.toBe(en);
      expect(t(key, {}, 'ca')).not.toBe(t(key, {}, 'es'));
    }
    expect([1, 3].map((n) => t('pendingCount', { n }, 'en'))).toEqual([
      '1 change not saved',
      '3 changes not saved',
    ]);
    expect([1, 3].map((n) => t('pendingCount', { n }, 'es'))).toEqual([
      '1 cambio sin guardar',
      '3 cambios sin guardar',
    ]);
    expect([1, 3].map((n) => t('pendingCount', { n }, 'ca'))).toEqual([
      '1 canvi sense desar',
      '3 canvis sense desar',
    ]);
    expect(uiLangOf('lg-spa')).toBe('es');
    expect(uiLangOf('lg-cat')).toBe('ca');
    expect(uiLangOf('lg-eng')).toBe('en');
    expect(uiLangOf('lg-fra')).toBe('en');
  });
});
