/**
 * Sentences shown to people for the API's refusals. The server's own message is kept where it
 * says what to fix (validation, conflicts: "the value does not fit ...", "... holds it"); codes
 * whose message is technical get a plain sentence. Nothing here ever shows JSON or a stack.
 */

const PLAIN: Record<string, string> = {
  network: 'The server cannot be reached. Check the connection and try again.',
  unexpected: 'Something went wrong on the server. Try again; if it keeps happening, tell an administrator.',
  'internal.unexpected':
    'Something went wrong on the server. Try again; if it keeps happening, tell an administrator.',
  'auth.not_logged': 'Your session has ended. Log in again to continue where you were.',
  'auth.login_failed': 'Unknown user or wrong password (or the account is not active).',
  'auth.csrf_failed': 'Your session token was out of date. Try again.',
  'perm.denied': 'Your profile does not allow this here.',
  'perm.out_of_scope': 'This record is outside your projects.',
  'perm.section_not_writable': 'This section can only be consulted.',
  'perm.global_admin_required': 'Only a global administrator may do this.',
  'resource.not_found': 'This record does not exist (any more).',
  'record.write_conflict': 'Someone saved at the same moment. Try again.',
  'request.unknown_action': 'This server does not offer this function yet.',
};

/** Codes whose server message is precise and meant for the user (what to fix, who holds what). */
const KEEP_SERVER_MESSAGE =
  /^(validation\.|resource\.conflict|record\.in_use|record\.delete_children|upload\.|lang\.|search\.)/;

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

export function waitText(seconds: number): string {
  if (seconds < 90) return plural(Math.max(1, Math.round(seconds)), 'second');
  return plural(Math.ceil(seconds / 60), 'minute');
}

export function messageFor(
  code: string,
  serverMessage?: string,
  status?: number,
  retryAfter?: number,
): string {
  if (code === 'rate.limited') {
    const wait =
      retryAfter !== undefined && Number.isFinite(retryAfter) ? ` Try again in ${waitText(retryAfter)}.` : '';
    return `Too many failed logins: logging in is paused for this account or address.${wait}`;
  }
  if (KEEP_SERVER_MESSAGE.test(code) && serverMessage) return serverMessage;
  if (PLAIN[code]) return PLAIN[code];
  if (serverMessage && status !== undefined && status < 500) return serverMessage;
  return PLAIN.unexpected!;
}
