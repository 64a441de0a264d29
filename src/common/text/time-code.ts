/**
 * A duration written as a time code, the way Dédalo's duration fields hold it and cataloguers
 * type it: `HH:MM:SS`, `H:MM:SS.mmm` (`,` also separates the milliseconds) or `MM:SS`. Shared by
 * publishing (a number column fed by a text field, src/publish/map-record.ts) and the publication
 * API (a media row's `duration` written as a time code, src/publication/services/av-media.ts).
 */

const TIME_CODE = /^(?:(\d{1,4}):)?([0-5]?\d):([0-5]?\d)(?:[.,](\d{1,3}))?$/;

/** Seconds of a time code, or undefined when `text` is not one. */
export function secondsOfTimeCode(text: string): number | undefined {
  const m = TIME_CODE.exec(text.trim());
  if (!m) return undefined;
  const ms = m[4] === undefined ? 0 : Number(m[4].padEnd(3, '0'));
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + ms / 1000;
}
