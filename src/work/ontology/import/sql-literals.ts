/**
 * PostgreSQL string literal bodies: standard strings (`'it''s'`, backslash is an ordinary
 * character) and escape strings (`E'line\none'`, with `\n`, `\t`, octal, hex and unicode escapes).
 */

/** Bytes of the text, for escapes that stand for bytes of a UTF-8 sequence. */
function pushUtf8(bytes: number[], text: string): void {
  for (const b of Buffer.from(text, 'utf8')) bytes.push(b);
}

const SIMPLE: Record<string, number> = { b: 8, f: 12, n: 10, r: 13, t: 9 };

/**
 * Decodes the body of an E'' string (between the quotes, with `''` and `\'` still escaped).
 * Returns null when a unicode escape is not a valid code point.
 */
export function decodeEscapeString(body: string): string | null {
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (c === "'") {
      // `''` inside the literal: the scanner only hands over doubled quotes.
      bytes.push(0x27);
      i += 2;
      continue;
    }
    if (c !== '\\') {
      const start = i;
      while (i < body.length && body[i] !== '\\' && body[i] !== "'") i++;
      pushUtf8(bytes, body.slice(start, i));
      continue;
    }
    const e = body[i + 1] ?? '';
    i += 2;
    if (e in SIMPLE) bytes.push(SIMPLE[e]!);
    else if (e >= '0' && e <= '7') {
      let digits = e;
      while (digits.length < 3 && /[0-7]/.test(body[i] ?? '')) digits += body[i++];
      bytes.push(Number.parseInt(digits, 8) & 0xff);
    } else if (e === 'x' && /[0-9a-fA-F]/.test(body[i] ?? '')) {
      let digits = body[i++]!;
      if (/[0-9a-fA-F]/.test(body[i] ?? '')) digits += body[i++];
      bytes.push(Number.parseInt(digits, 16));
    } else if ((e === 'u' || e === 'U') && /^[0-9a-fA-F]+$/.test(body.slice(i, i + (e === 'u' ? 4 : 8)))) {
      const len = e === 'u' ? 4 : 8;
      const code = Number.parseInt(body.slice(i, i + len), 16);
      i += len;
      if (code > 0x10ffff) return null;
      pushUtf8(bytes, String.fromCodePoint(code));
    } else pushUtf8(bytes, e);
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Quotes a text as a standard SQL string literal. */
export function quoteSqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
