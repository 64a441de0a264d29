/**
 * Sentences shown to people for the API's refusals. The server's own message is kept where it
 * says what to fix (validation, conflicts: "the value does not fit ...", "... holds it"); codes
 * whose message is technical get a plain sentence in the interface language. Nothing here ever
 * shows JSON or a stack.
 */
import { type MessageKey, t } from './i18n.js';

const PLAIN: Record<string, MessageKey> = {
  network: 'err_network',
  unexpected: 'err_unexpected',
  'internal.unexpected': 'err_unexpected',
  'auth.not_logged': 'sessionEnded',
  'auth.login_failed': 'err_loginFailed',
  'auth.csrf_failed': 'err_csrf',
  'perm.denied': 'err_permDenied',
  'perm.out_of_scope': 'err_outOfScope',
  'perm.section_not_writable': 'err_notWritable',
  'perm.global_admin_required': 'err_globalAdmin',
  'resource.not_found': 'err_notFound',
  'record.write_conflict': 'err_writeConflict',
  'record.restore_id_taken': 'err_restoreIdTaken',
  'request.unknown_action': 'err_unknownAction',
};

/** Codes whose server message is precise and meant for the user (what to fix, who holds what). */
const KEEP_SERVER_MESSAGE =
  /^(validation\.|resource\.conflict|record\.in_use|record\.delete_children|upload\.|lang\.|search\.)/;

export function waitText(seconds: number): string {
  if (seconds < 90) return t('seconds', { n: Math.max(1, Math.round(seconds)) });
  return t('minutes', { n: Math.ceil(seconds / 60) });
}

export function messageFor(
  code: string,
  serverMessage?: string,
  status?: number,
  retryAfter?: number,
): string {
  if (code === 'rate.limited') {
    return retryAfter !== undefined && Number.isFinite(retryAfter)
      ? t('rateLimitedWait', { wait: waitText(retryAfter) })
      : t('rateLimited');
  }
  if (KEEP_SERVER_MESSAGE.test(code) && serverMessage) return serverMessage;
  const plain = PLAIN[code];
  if (plain) return t(plain);
  if (serverMessage && status !== undefined && status < 500) return serverMessage;
  return t('err_unexpected');
}
