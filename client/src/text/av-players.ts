/**
 * The audiovisual player of a record, for the transcription beside it: the AV field registers
 * its <video> under the record's address and the transcription editor of the same record finds
 * it there (they are separate fields, each in its own shadow root). `playersChanged` fires when a
 * player comes or goes, so an editor drawn before the player shows its controls once it is there.
 */

const players = new Map<string, HTMLMediaElement>();
export const playersChanged = new EventTarget();

const keyOf = (sectionTipo: string, sectionId: number | string) => `${sectionTipo}/${sectionId}`;

export function registerPlayer(
  sectionTipo: string,
  sectionId: number | string,
  el: HTMLMediaElement | undefined,
) {
  const key = keyOf(sectionTipo, sectionId);
  if (players.get(key) === el) return;
  if (el) players.set(key, el);
  else players.delete(key);
  playersChanged.dispatchEvent(new Event('change'));
}

/** The record's player while it is on the page. */
export function playerOf(sectionTipo: string, sectionId: number | string): HTMLMediaElement | undefined {
  const el = players.get(keyOf(sectionTipo, sectionId));
  return el?.isConnected ? el : undefined;
}

/** Seconds back with the "back" shortcut. */
export const BACK_SECONDS = 5;

/** What the keys typed in the transcription do with the player. */
export type PlayerAction = 'toggle' | 'back' | 'stamp';

/**
 * The transcription's player shortcuts: Esc (Dédalo's transcription key) or Ctrl+Space play and
 * pause, F2 goes back 5 seconds, F4 inserts the player's time as a timecode. None of them types
 * text or is a browser or system shortcut in Chromium, Firefox or Safari.
 */
export function playerShortcut(e: KeyboardEvent): PlayerAction | undefined {
  if (e.altKey || e.metaKey) return undefined;
  if (e.key === 'Escape' && !e.ctrlKey && !e.shiftKey) return 'toggle';
  if (e.code === 'Space' && e.ctrlKey && !e.shiftKey) return 'toggle';
  if (e.ctrlKey || e.shiftKey) return undefined;
  if (e.key === 'F2') return 'back';
  if (e.key === 'F4') return 'stamp';
  return undefined;
}

/** Plays or pauses, or goes back: the player's own controls stay in step. */
export function runOnPlayer(player: HTMLMediaElement, action: Exclude<PlayerAction, 'stamp'>) {
  if (action === 'back') {
    player.currentTime = Math.max(0, player.currentTime - BACK_SECONDS);
    return;
  }
  if (player.paused) void player.play().catch(() => {});
  else player.pause();
}
