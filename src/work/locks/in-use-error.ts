/**
 * The refusal when someone else holds a component's lock (a focus or a save): 409
 * `record.in_use`, its message naming the holder and since when, and `error.details`
 * `{section_tipo, section_id, component_tipo, holder: {user_id, username, full_username, since}}`.
 */
import { WorkError } from '../dispatch/error-registry.js';
import type { LockHolder, LockKey } from './component-locks.js';

export function inUseMessage(holder: LockHolder): string {
  const who = holder.full_username
    ? `${holder.full_username}${holder.username ? ` (${holder.username})` : ''}`
    : (holder.username ?? `user ${holder.user_id}`);
  return `${who} has been editing this component since ${holder.since}`;
}

export function inUseError(key: LockKey, holder: LockHolder): WorkError {
  return new WorkError('record.in_use', inUseMessage(holder), undefined, { ...key, holder });
}
