/**
 * `sessions` (global admins only): the live sessions with their users, and the login locks in
 * force; `end_session` ends one session (`session_id`) or every session of a user (`user_id`);
 * `unlock_login` lifts login throttling for a username (optionally from one address) or for an
 * address. Each change is one transaction with its activity row.
 */

import { type Fields, optionalString } from '../../actions/rqo-fields.js';
import { unlockLogin } from '../../auth/login-throttle.js';
import { idleSince } from '../../auth/sessions.js';
import type { ActionContext } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { logActivity } from '../../store/activity.js';
import { listActiveLocks } from '../../store/login-throttle.js';
import { deleteSessionsWhere, listLiveSessions } from '../../store/sessions.js';
import { MAINTENANCE_AREA } from '../access.js';
import type { MaintenanceWidget } from '../widget.js';

/** A session's public id: the SHA-256 of its cookie token (what the table is keyed by). */
const SESSION_ID_PATTERN = /^[0-9a-f]{64}$/;

async function sessionsValue(ctx: ActionContext) {
  const sessions = await listLiveSessions(ctx.db, ctx.now, idleSince(ctx.now));
  return {
    sessions: sessions.map((s) => ({
      session_id: s.token_sha256,
      user_id: s.user_id,
      username: s.username ?? (s.user_id === -1 ? 'root' : null),
      full_username: s.full_username,
      created_at: s.created_at,
      last_seen_at: s.last_seen_at,
      expires_at: s.expires_at,
      current: s.token_sha256 === ctx.session?.tokenSha256,
    })),
    login_locks: (await listActiveLocks(ctx.db, ctx.now)).map((l) => ({
      scope: l.scope,
      username: l.username === '' ? null : l.username,
      // A device lock's "address" is its cookie's nonce: not shown (unlocking the user lifts it).
      address: l.address === '' || l.scope === 'device' ? null : l.address,
      failures: l.failures,
      locked_until: l.locked_until,
      retry_after_seconds: l.seconds,
    })),
  };
}

function endTarget(options: Fields): { tokenSha256: string } | { userId: number } {
  const sessionId = optionalString(options, 'session_id', 'options.session_id', 64);
  const userId = options.user_id;
  if (sessionId !== undefined && userId === undefined) {
    if (!SESSION_ID_PATTERN.test(sessionId)) {
      throw new WorkError(
        'rqo.invalid_field',
        'options.session_id must be a session_id listed by the widget',
      );
    }
    return { tokenSha256: sessionId };
  }
  if (sessionId === undefined && Number.isSafeInteger(userId)) return { userId: userId as number };
  throw new WorkError(
    'rqo.invalid_field',
    'options needs exactly one of session_id (a string from the widget) or user_id (an integer)',
  );
}

async function endSession(ctx: ActionContext, options: Fields) {
  const target = endTarget(options);
  const ended = await ctx.db.transaction(async (tx) => {
    const rows = await deleteSessionsWhere(tx, target);
    if (rows.length === 0 && 'tokenSha256' in target) {
      throw new WorkError('resource.not_found', 'No live session has this session_id');
    }
    // The ended sessions' component locks go with their rows, in this transaction
    // (component_locks.session_sha256 references sessions ON DELETE CASCADE).
    await logActivity(tx, {
      userId: ctx.session!.userId,
      what: 'end_session',
      where: MAINTENANCE_AREA,
      when: ctx.now,
      data: {
        ...('userId' in target ? { user_id: target.userId } : { session_id: target.tokenSha256 }),
        ended: rows.length,
        request_id: ctx.requestId,
      },
    });
    return rows.length;
  });
  return { result: true, ended, msg: `Ended ${ended} session${ended === 1 ? '' : 's'}` };
}

async function unlockLoginMethod(ctx: ActionContext, options: Fields) {
  const username = optionalString(options, 'username', 'options.username');
  const address = optionalString(options, 'address', 'options.address');
  if (!username && !address) {
    throw new WorkError('rqo.invalid_field', 'options needs a username, an address, or both');
  }
  const removed = await ctx.db.transaction(async (tx) => {
    const n = await unlockLogin(tx, { username: username || undefined, address: address || undefined });
    await logActivity(tx, {
      userId: ctx.session!.userId,
      what: 'unlock_login',
      where: MAINTENANCE_AREA,
      when: ctx.now,
      data: { username: username ?? null, address: address ?? null, removed: n, request_id: ctx.requestId },
    });
    return n;
  });
  return { result: true, removed, msg: removed > 0 ? 'Login unlocked' : 'Nothing was locked' };
}

export const sessionsWidget: MaintenanceWidget = {
  value: { globalAdminOnly: true, run: sessionsValue },
  methods: {
    end_session: { globalAdminOnly: true, run: endSession },
    unlock_login: { globalAdminOnly: true, run: unlockLoginMethod },
  },
};
