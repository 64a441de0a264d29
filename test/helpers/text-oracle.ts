/**
 * An independent reference for full-text tests: tokenises stored text the way both engines'
 * indexes see it (letters and digits, case- and accent-insensitive), so the rows a search
 * should return can be computed without asking the database's full-text engine.
 */
export function normalizeWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function tokensOf(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(normalizeWord);
}

/** Plain words of a transcription (tags and HTML removed), for picking search terms. */
export function plainWords(text: string): string[] {
  return text
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length >= 6);
}
