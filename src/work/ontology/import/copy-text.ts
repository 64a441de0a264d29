/**
 * PostgreSQL COPY text format (the default `FROM stdin` format of pg_dump): one row per line,
 * columns separated by a tab, `\N` for NULL, and backslash escapes for the characters that would
 * break a line (`\t`, `\n`, `\r`, `\\`, `\b`, `\f`, `\v`, octal `\ooo`, hex `\xhh`).
 */
import { OntologyParseError } from './parse-error.js';

const SIMPLE: Record<string, number> = { b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };

/** One field of a COPY line, decoded; null for `\N`. */
export function decodeCopyField(field: string, line: number): string | null {
  if (field === '\\N') return null;
  if (!field.includes('\\')) return field;
  // Octal and hex escapes stand for bytes, which may form multi-byte UTF-8 together.
  const bytes: number[] = [];
  const pushText = (text: string) => {
    for (const b of Buffer.from(text, 'utf8')) bytes.push(b);
  };
  let i = 0;
  while (i < field.length) {
    const next = field.indexOf('\\', i);
    if (next < 0) {
      pushText(field.slice(i));
      break;
    }
    pushText(field.slice(i, next));
    const c = field[next + 1];
    if (c === undefined) throw new OntologyParseError('a COPY field ends with a lone backslash', line);
    i = next + 2;
    if (c in SIMPLE) bytes.push(SIMPLE[c]!);
    else if (c >= '0' && c <= '7') {
      let digits = c;
      while (digits.length < 3 && /[0-7]/.test(field[i] ?? '')) digits += field[i++];
      bytes.push(Number.parseInt(digits, 8) & 0xff);
    } else if (c === 'x' && /[0-9a-fA-F]/.test(field[i] ?? '')) {
      let digits = field[i++]!;
      if (/[0-9a-fA-F]/.test(field[i] ?? '')) digits += field[i++];
      bytes.push(Number.parseInt(digits, 16));
    } else pushText(c);
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Splits one COPY data line into decoded fields. */
export function decodeCopyLine(text: string, line: number): (string | null)[] {
  return text.split('\t').map((field) => decodeCopyField(field, line));
}

/** Encodes one value as a COPY text field (the inverse of decodeCopyField). */
export function encodeCopyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\t\n\r\b\f\v]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\\\';
      case '\t':
        return '\\t';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\b':
        return '\\b';
      case '\f':
        return '\\f';
      default:
        return '\\v';
    }
  });
}
