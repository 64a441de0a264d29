/**
 * Reads the ontology rows out of a PostgreSQL dump: `INSERT INTO jer_dd (...) VALUES (...), ...;`
 * statements and `COPY jer_dd|dd_ontology (...) FROM stdin;` blocks. Every other statement (SET,
 * SELECT pg_catalog.setval, CREATE, other tables' rows, psql meta-commands) is skipped, honouring
 * comments, quoted strings and dollar-quoted bodies so a `;` inside them does not end a statement.
 */
import { decodeCopyLine } from './copy-text.js';
import { OntologyParseError } from './parse-error.js';
import type { OntologySyntax, OntologyTable, RawRow, RawTable } from './raw-table.js';
import { decodeEscapeString } from './sql-literals.js';

const ONTOLOGY_TABLES: readonly string[] = ['jer_dd', 'dd_ontology'];

class Scanner {
  pos = 0;
  /** `SET standard_conforming_strings = off` (dumps of old servers): backslashes escape in '' too. */
  backslashEscapes = false;
  private readonly newlines: number[] = [];

  constructor(readonly src: string) {
    for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) this.newlines.push(i);
  }

  lineAt(pos: number = this.pos): number {
    let lo = 0;
    let hi = this.newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.newlines[mid]! < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }

  fail(message: string, pos: number = this.pos): never {
    throw new OntologyParseError(message, this.lineAt(pos));
  }

  get eof(): boolean {
    return this.pos >= this.src.length;
  }

  peek(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  /** Skips whitespace and `--` / nested block comments. */
  skipSpace(): void {
    const s = this.src;
    for (;;) {
      const c = s[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') this.pos++;
      else if (c === '-' && s[this.pos + 1] === '-') {
        const end = s.indexOf('\n', this.pos);
        this.pos = end < 0 ? s.length : end + 1;
      } else if (c === '/' && s[this.pos + 1] === '*') {
        let depth = 0;
        while (this.pos < s.length) {
          if (s.startsWith('/*', this.pos)) {
            depth++;
            this.pos += 2;
          } else if (s.startsWith('*/', this.pos)) {
            depth--;
            this.pos += 2;
            if (depth === 0) break;
          } else this.pos++;
        }
      } else return;
    }
  }

  /** The keyword at the cursor (letters and underscores), lower-cased, without consuming it. */
  peekWord(): string {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos, this.pos + 64));
    return m ? m[0].toLowerCase() : '';
  }

  expectWord(word: string): void {
    this.skipSpace();
    if (this.peekWord() !== word) this.fail(`expected ${word.toUpperCase()}`);
    this.pos += word.length;
  }

  /** An identifier: quoted (case kept, `""` for a quote) or bare (folded to lower case). */
  identifier(): string {
    this.skipSpace();
    if (this.peek() === '"') {
      const start = this.pos;
      let out = '';
      this.pos++;
      for (;;) {
        const end = this.src.indexOf('"', this.pos);
        if (end < 0) this.fail('unterminated quoted identifier', start);
        out += this.src.slice(this.pos, end);
        this.pos = end + 1;
        if (this.peek() === '"') {
          out += '"';
          this.pos++;
        } else return out;
      }
    }
    const m = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/.exec(
      this.src.slice(this.pos, this.pos + 256),
    );
    if (!m) this.fail('expected a name');
    this.pos += m[0].length;
    return m[0].toLowerCase();
  }

  /** `schema.table` or `table`: the parts. */
  qualifiedName(): string[] {
    const parts = [this.identifier()];
    while (this.peek() === '.') {
      this.pos++;
      parts.push(this.identifier());
    }
    return parts;
  }

  /** `(a, "B", c)`: the column names. */
  columnList(): string[] {
    this.skipSpace();
    if (this.peek() !== '(') this.fail('expected a column list');
    this.pos++;
    const cols: string[] = [];
    for (;;) {
      cols.push(this.identifier());
      this.skipSpace();
      const c = this.peek();
      this.pos++;
      if (c === ')') return cols;
      if (c !== ',') this.fail('expected , or ) in the column list', this.pos - 1);
    }
  }

  /** Moves past the end of the current statement (the next top-level `;`, or the end). */
  skipStatement(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s[this.pos]!;
      if (c === ';') {
        this.pos++;
        return;
      }
      if (c === "'") {
        this.skipQuoted(
          this.backslashEscapes || (/[eE]/.test(s[this.pos - 1] ?? '') && !/\w/.test(s[this.pos - 2] ?? '')),
        );
      } else if (c === '"') {
        const end = s.indexOf('"', this.pos + 1);
        this.pos = end < 0 ? s.length : end + 1;
      } else if (c === '$') {
        const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(s.slice(this.pos, this.pos + 64));
        if (m) {
          const end = s.indexOf(m[0], this.pos + m[0].length);
          this.pos = end < 0 ? s.length : end + m[0].length;
        } else this.pos++;
      } else if ((c === '-' && s[this.pos + 1] === '-') || (c === '/' && s[this.pos + 1] === '*'))
        this.skipSpace();
      else this.pos++;
    }
  }

  /** From an opening quote, moves past the literal; returns its raw body. */
  skipQuoted(escapes: boolean): string {
    const s = this.src;
    const start = this.pos;
    let i = this.pos + 1;
    for (;;) {
      if (i >= s.length) this.fail('unterminated string literal', start);
      const c = s[i];
      if (escapes && c === '\\') i += 2;
      else if (c === "'") {
        if (s[i + 1] === "'") i += 2;
        else break;
      } else i++;
    }
    this.pos = i + 1;
    return s.slice(start + 1, i);
  }

  /** One value of a VALUES tuple, as text (null for NULL). */
  value(): string | null {
    this.skipSpace();
    const start = this.pos;
    const c = this.peek();
    let out: string | null;
    if (c === "'" && this.backslashEscapes) {
      out = decodeEscapeString(this.skipQuoted(true));
      if (out === null) this.fail('invalid unicode escape in a string', start);
    } else if (c === "'") out = this.skipQuoted(false).replaceAll("''", "'");
    else if ((c === 'E' || c === 'e') && this.peek(1) === "'") {
      this.pos++;
      out = decodeEscapeString(this.skipQuoted(true));
      if (out === null) this.fail('invalid unicode escape in an E string', start);
    } else {
      const m = /^(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|null|true|false)(?![A-Za-z0-9_])/i.exec(
        this.src.slice(this.pos, this.pos + 64),
      );
      if (!m) this.fail('expected a value (a string, a number, NULL, true or false)');
      this.pos += m[0].length;
      const word = m[0].toLowerCase();
      out = word === 'null' ? null : word === 'true' || word === 'false' ? word : m[0];
    }
    this.skipCasts();
    return out;
  }

  /** `::jsonb`, `::character varying(32)`, `::public.sino`, `::text[]` after a value. */
  skipCasts(): void {
    for (;;) {
      this.skipSpace();
      if (!this.src.startsWith('::', this.pos)) return;
      this.pos += 2;
      this.qualifiedName();
      for (;;) {
        this.skipSpace();
        const c = this.peek();
        if (c === '(') {
          const end = this.src.indexOf(')', this.pos);
          if (end < 0) this.fail('unterminated type modifier');
          this.pos = end + 1;
        } else if (c === '[' && this.peek(1) === ']') this.pos += 2;
        else if (/[A-Za-z_]/.test(c)) this.qualifiedName();
        else break;
      }
    }
  }
}

interface Found {
  table: OntologyTable;
  syntax: OntologySyntax;
  rows: RawRow[];
}

function toCells(columns: string[], values: (string | null)[]): Record<string, string | null> {
  const cells: Record<string, string | null> = {};
  columns.forEach((col, i) => {
    cells[col] = values[i] ?? null;
  });
  return cells;
}

function readInsert(sc: Scanner, found: Found[], seen: string[]): void {
  const start = sc.pos;
  sc.pos += 'insert'.length;
  sc.expectWord('into');
  const name = sc.qualifiedName();
  const table = name[name.length - 1]!;
  if (!ONTOLOGY_TABLES.includes(table)) {
    seen.push(`INSERT INTO ${name.join('.')}`);
    sc.skipStatement();
    return;
  }
  sc.skipSpace();
  if (sc.peek() !== '(') {
    sc.fail(`INSERT INTO ${table} without a column list: dump with pg_dump --column-inserts`, start);
  }
  const columns = sc.columnList();
  sc.expectWord('values');
  const rows: RawRow[] = [];
  for (;;) {
    sc.skipSpace();
    const rowStart = sc.pos;
    if (sc.peek() !== '(') sc.fail('expected ( to open a row of VALUES');
    sc.pos++;
    const values: (string | null)[] = [];
    for (;;) {
      values.push(sc.value());
      sc.skipSpace();
      const c = sc.peek();
      sc.pos++;
      if (c === ')') break;
      if (c !== ',') sc.fail('expected , or ) in a row of VALUES', sc.pos - 1);
    }
    if (values.length !== columns.length) {
      sc.fail(`a row has ${values.length} values for ${columns.length} columns`, rowStart);
    }
    rows.push({ line: sc.lineAt(rowStart), cells: toCells(columns, values) });
    sc.skipSpace();
    if (sc.peek() === ',') {
      sc.pos++;
      continue;
    }
    break;
  }
  if (sc.peek() === ';') sc.pos++;
  else if (sc.peekWord() === 'on') sc.skipStatement();
  else if (!sc.eof) sc.fail('expected ; after the VALUES rows');
  found.push({ table: table as OntologyTable, syntax: 'sql-insert', rows });
}

function readCopy(sc: Scanner, found: Found[], seen: string[]): void {
  const start = sc.pos;
  sc.pos += 'copy'.length;
  const name = sc.qualifiedName();
  const table = name[name.length - 1]!;
  const ontology = ONTOLOGY_TABLES.includes(table);
  sc.skipSpace();
  let columns: string[] | null = null;
  if (sc.peek() === '(') columns = sc.columnList();
  const restStart = sc.pos;
  sc.skipStatement();
  const rest = sc.src.slice(restStart, sc.pos);
  if (!/^\s*from\s+stdin\b/i.test(rest)) {
    seen.push(`COPY ${name.join('.')}`);
    return;
  }
  if (ontology && /\b(csv|binary)\b/i.test(rest)) {
    sc.fail(`COPY ${table} in CSV or binary format: only the text format is read`, start);
  }
  if (ontology && !columns) sc.fail(`COPY ${table} without a column list`, start);
  // The data starts on the line after the statement.
  const nl = sc.src.indexOf('\n', sc.pos);
  sc.pos = nl < 0 ? sc.src.length : nl + 1;
  const rows: RawRow[] = [];
  while (!sc.eof) {
    const lineStart = sc.pos;
    const end = sc.src.indexOf('\n', lineStart);
    let text = sc.src.slice(lineStart, end < 0 ? sc.src.length : end);
    sc.pos = end < 0 ? sc.src.length : end + 1;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text === '\\.') break;
    if (!ontology || !columns) continue;
    const line = sc.lineAt(lineStart);
    const values = decodeCopyLine(text, line);
    if (values.length !== columns.length) {
      throw new OntologyParseError(
        `a COPY row has ${values.length} tab-separated fields for ${columns.length} columns`,
        line,
      );
    }
    rows.push({ line, cells: toCells(columns, values) });
  }
  if (ontology) found.push({ table: table as OntologyTable, syntax: 'copy', rows });
  else seen.push(`COPY ${name.join('.')}`);
}

/** The ontology rows of a dump; throws OntologyParseError when there are none or it is unreadable. */
export function readDump(text: string): RawTable {
  const sc = new Scanner(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const found: Found[] = [];
  const seen: string[] = [];
  for (;;) {
    sc.skipSpace();
    if (sc.eof) break;
    if (sc.peek() === '\\') {
      // psql meta-command (`\connect`, `\restrict`): to the end of the line.
      const end = sc.src.indexOf('\n', sc.pos);
      sc.pos = end < 0 ? sc.src.length : end + 1;
      continue;
    }
    const word = sc.peekWord();
    if (word === 'insert') readInsert(sc, found, seen);
    else if (word === 'copy') readCopy(sc, found, seen);
    else {
      const start = sc.pos;
      if (word) seen.push(word.toUpperCase());
      else sc.pos++;
      sc.skipStatement();
      if (word === 'set') {
        const m = /^set\s+standard_conforming_strings\s*(?:=|to)\s*'?(on|off)\b/i.exec(
          sc.src.slice(start, sc.pos),
        );
        if (m) sc.backslashEscapes = m[1]!.toLowerCase() === 'off';
      }
    }
  }
  const tables = [...new Set(found.map((f) => f.table))];
  if (tables.length > 1) {
    throw new OntologyParseError(
      'the file holds rows of both jer_dd and dd_ontology: import one table at a time',
    );
  }
  const rows = found.flatMap((f) => f.rows);
  if (rows.length === 0) {
    const what = [...new Set(seen)].slice(0, 8);
    throw new OntologyParseError(
      `no ontology rows found: expected INSERT INTO jer_dd (...) VALUES rows, or COPY jer_dd / COPY dd_ontology ` +
        `(...) FROM stdin text${found.length > 0 ? ' (the ontology table is there but empty)' : ''}; ` +
        (what.length > 0 ? `the file holds: ${what.join(', ')}` : 'the file holds no SQL statements'),
    );
  }
  return { table: found[0]!.table, syntax: found[0]!.syntax, rows };
}
