/**
 * The sentence a field shows when someone else holds it, built from a `record.in_use` refusal's
 * `error.details.holder` (the server's shape: src/work/locks/in-use-error.ts).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/src/api/rqo-client.js';
import { lockHolderSentence } from '../../client/src/components/record-store.js';

const refusal = (details?: Record<string, unknown>) =>
  new ApiError('server sentence', 'record.in_use', 409, true, undefined, details);

describe('lockHolderSentence', () => {
  it('names the holder and the time they took the field, in the reader’s clock', () => {
    const since = '2026-11-24T10:02:00.000Z';
    const local = new Date(since).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
    expect(
      lockHolderSentence(
        refusal({ holder: { user_id: 2, username: 'maria', full_username: 'Maria López', since } }),
      ),
    ).toBe(`Maria López (maria) is editing this field since ${local}.`);
  });

  it('falls back to the username, then the user id, and leaves out a missing or bad time', () => {
    expect(
      lockHolderSentence(refusal({ holder: { user_id: 2, username: 'maria', full_username: null } })),
    ).toBe('maria is editing this field.');
    expect(
      lockHolderSentence(
        refusal({ holder: { user_id: 7, username: null, full_username: null, since: 'x' } }),
      ),
    ).toBe('user 7 is editing this field.');
  });

  it('uses the server’s sentence when the refusal has no holder', () => {
    expect(lockHolderSentence(refusal())).toBe('server sentence');
  });
});
