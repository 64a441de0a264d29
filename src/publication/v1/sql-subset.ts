/**
 * The SQL fragments of v1 clients (`sql_filter`, `ar_fields`, `order`, `group`,
 * `sql_fullselect`) read with a real SQL parser (node-sql-parser, MariaDB grammar) and turned
 * into our expression tree (db/expr.ts) only when every node is in the safe subset:
 *
 *   column references checked against the live schema (or aliases of the select list),
 *   string / number / NULL / TRUE / FALSE literals (bound as parameters when rendered),
 *   comparisons (= != <> < <= > >=), LIKE / NOT LIKE, AND / OR / NOT, IN / NOT IN (a list of
 *   literals or columns), IS [NOT] NULL, [NOT] BETWEEN, MATCH(column) AGAINST('text' [IN
 *   BOOLEAN MODE]) on a full-text indexed column, the functions of EXPR_FUNCTIONS, DISTINCT and
 *   `expr AS alias` in field lists, ASC / DESC in orders.
 *
 * Anything else (subqueries, UNION, stacked statements, other databases, variables, unknown
 * functions such as SLEEP or LOAD_FILE, arithmetic, ...) is refused with a V1Error naming the
 * construct. Nothing of the fragment's text is ever sent: the tree is re-rendered per engine.
 */
import sqlParser from 'node-sql-parser/build/mariadb.js';
import {
  EXPR_FUNCTIONS,
  type Expr,
  type ExprFunction,
  type ExprOrder,
  type SelectItem,
  type TableInfo,
} from '../db/types.js';
import { parseSearchQuery } from '../text/search-query.js';
import { V1Error } from './v1-errors.js';

const parser = new sqlParser.Parser();

// biome-ignore lint/suspicious/noExplicitAny: the parser's AST is walked defensively node by node
type Node = any;

/** What a fragment may refer to. */
export interface FragmentScope {
  /** The table(s) the fragment runs on; a column must exist in every one of them. */
  tables: TableInfo[];
  /** Aliases the select list defines (ORDER BY relevance). */
  aliases?: ReadonlySet<string>;
}

/** A parsed field list: `*` expands to every column but `id`. */
export interface FieldList {
  items: SelectItem[];
  distinct: boolean;
}

const COMPARE: Record<string, Extract<Expr, { kind: 'compare' }>['op']> = {
  '=': '=',
  '!=': '<>',
  '<>': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  LIKE: 'LIKE',
  'NOT LIKE': 'NOT LIKE',
};

function illegal(param: string, what: string): V1Error {
  return new V1Error(`Error on sql request. Illegal ${param}: ${what}`);
}

/** Constructs named when a fragment does not parse, so the refusal says what was wrong. */
const SUSPECTS: [RegExp, string][] = [
  [/;/, 'more than one statement (;)'],
  [/--|#|\/\*/, 'comment'],
  [/\bunion\b/i, 'UNION'],
  [/\bselect\b/i, 'subquery'],
  [/\binto\s+(out|dump)file\b/i, 'INTO OUTFILE'],
  [/@/, 'variable'],
];

/** True when `text` has a comment (`--`, `#`, `/*`) outside quoted strings and names. */
function hasComment(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== undefined) {
      if (ch === '\\' && quote !== '`') i++;
      else if (ch === quote) {
        if (text[i + 1] === quote) i++;
        else quote = undefined;
      }
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '#' || (ch === '-' && text[i + 1] === '-') || (ch === '/' && text[i + 1] === '*'))
      return true;
  }
  return false;
}

/** The value of a MariaDB string literal as the parser gives it (escapes still in place). */
function unescapeString(raw: string, quote: "'" | '"'): string {
  const map: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };
  return raw.replace(new RegExp(`\\\\(.)|${quote}${quote}`, 'gs'), (m, esc: string | undefined) => {
    if (esc === undefined) return quote;
    if (esc === '%' || esc === '_') return m; // kept for LIKE, as MariaDB does
    return map[esc] ?? esc;
  });
}

/** Parses one wrapped statement; refuses comments, stacked statements and parse failures. */
function parseOne(param: string, sql: string, fragment = sql): Node {
  if (hasComment(fragment)) throw illegal(param, 'comment');
  let ast: Node;
  try {
    ast = parser.astify(sql, { database: 'MariaDB' });
  } catch {
    const named = SUSPECTS.find(([re]) => re.test(fragment));
    throw illegal(param, named ? named[1] : 'not valid SQL of the accepted subset');
  }
  if (Array.isArray(ast)) {
    if (ast.length !== 1) throw illegal(param, 'more than one statement');
    ast = ast[0];
  }
  if (ast?.type !== 'select')
    throw illegal(param, `${String(ast?.type ?? 'statement').toUpperCase()} statement`);
  return ast;
}

/** The clauses a wrapper may fill; every other part of the SELECT must be empty. */
function checkShape(param: string, ast: Node, allowed: Set<string>): void {
  if (ast._next || ast.set_op) throw illegal(param, 'UNION');
  const named: Record<string, string> = {
    with: 'WITH',
    options: 'SELECT options',
    having: 'HAVING',
    limit: 'LIMIT',
    window: 'WINDOW',
    locking_read: 'FOR UPDATE / LOCK',
    collate: 'COLLATE',
    where: 'WHERE',
    groupby: 'GROUP BY',
    orderby: 'ORDER BY',
    distinct: 'DISTINCT',
  };
  for (const [key, label] of Object.entries(named)) {
    const value = ast[key];
    const empty =
      value === null ||
      value === undefined ||
      (key === 'limit' && Array.isArray(value?.value) && value.value.length === 0) ||
      (key === 'groupby' && value && Array.isArray(value.columns) && value.columns.length === 0);
    if (!empty && !allowed.has(key)) throw illegal(param, label);
  }
  if (ast.into && ast.into.position !== null && ast.into.position !== undefined) throw illegal(param, 'INTO');
}

class Converter {
  constructor(
    private readonly param: string,
    private readonly scope: FragmentScope,
  ) {}

  private column(node: Node): Expr {
    const name = typeof node.column === 'string' ? node.column : node.column?.expr?.value;
    if (typeof name !== 'string') throw illegal(this.param, 'column reference');
    if (node.table !== null && node.table !== undefined) {
      if (!this.scope.tables.some((t) => t.name === node.table)) {
        throw illegal(this.param, `reference to another table or database (${String(node.table)})`);
      }
    }
    if (name === '*') return { kind: 'star' };
    if (node.table == null && this.scope.aliases?.has(name)) return { kind: 'alias', name };
    const resolved = this.resolveColumn(name);
    return { kind: 'column', name: resolved };
  }

  /** The column's real name (MariaDB names are case-insensitive); it must exist in every table. */
  resolveColumn(name: string): string {
    let real: string | undefined;
    for (const table of this.scope.tables) {
      const match =
        table.columnsByName.get(name)?.name ??
        table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())?.name;
      if (match === undefined) throw illegal(this.param, `unknown column ${name} in ${table.name}`);
      real = match;
    }
    if (real === undefined) throw illegal(this.param, `unknown column ${name}`);
    return real;
  }

  expr(node: Node): Expr {
    if (node === null || typeof node !== 'object') throw illegal(this.param, 'expression');
    if (node.ast || node.type === 'select') throw illegal(this.param, 'subquery');
    switch (node.type) {
      case 'column_ref':
        return this.column(node);
      case 'number':
        if (typeof node.value !== 'number' || !Number.isFinite(node.value))
          throw illegal(this.param, 'number');
        return { kind: 'literal', value: node.value };
      case 'single_quote_string':
      case 'double_quote_string':
      case 'string':
      case 'natural_string':
        if (typeof node.value !== 'string') throw illegal(this.param, 'string');
        return {
          kind: 'literal',
          value: unescapeString(node.value, node.type === 'double_quote_string' ? '"' : "'"),
        };
      case 'bool':
        return { kind: 'literal', value: node.value ? 1 : 0 };
      case 'null':
        return { kind: 'literal', value: null };
      case 'unary_expr':
        return this.unary(node);
      case 'binary_expr':
        return this.binary(node);
      case 'function':
        return this.call(node);
      case 'aggr_func':
        return this.aggregate(node);
      case 'fulltext_search':
        return this.match(node);
      case 'expr_list':
        if (Array.isArray(node.value) && node.value.length === 1) return this.expr(node.value[0]);
        throw illegal(this.param, 'row value list');
      default:
        throw illegal(this.param, describe(node));
    }
  }

  private unary(node: Node): Expr {
    const op = String(node.operator).toUpperCase();
    if (op === 'NOT' || op === '!') return { kind: 'not', expr: this.expr(node.expr) };
    if (op === '-' && node.expr?.type === 'number' && typeof node.expr.value === 'number') {
      return { kind: 'literal', value: -node.expr.value };
    }
    throw illegal(this.param, `operator ${op}`);
  }

  private list(node: Node): Expr[] {
    if (node?.type !== 'expr_list' || !Array.isArray(node.value)) throw illegal(this.param, 'IN list');
    return node.value.map((v: Node) => {
      const e = this.expr(v);
      if (e.kind !== 'literal' && e.kind !== 'column') throw illegal(this.param, 'IN list item');
      return e;
    });
  }

  private binary(node: Node): Expr {
    const op = String(node.operator).toUpperCase();
    if (op === 'AND' || op === 'OR' || op === '&&' || op === '||') {
      if (op === '||') throw illegal(this.param, 'operator ||');
      const kind = op === 'OR' ? 'or' : 'and';
      return { kind, items: [this.expr(node.left), this.expr(node.right)] };
    }
    if (op in COMPARE) {
      return { kind: 'compare', op: COMPARE[op]!, left: this.expr(node.left), right: this.expr(node.right) };
    }
    if (op === 'IN' || op === 'NOT IN') {
      return {
        kind: 'in',
        expr: this.expr(node.left),
        list: this.list(node.right),
        negated: op === 'NOT IN',
      };
    }
    if (op === 'IS' || op === 'IS NOT') {
      if (node.right?.type !== 'null') throw illegal(this.param, `${op} other than NULL`);
      return { kind: 'is_null', expr: this.expr(node.left), negated: op === 'IS NOT' };
    }
    if (op === 'BETWEEN' || op === 'NOT BETWEEN') {
      const bounds = node.right?.value;
      if (!Array.isArray(bounds) || bounds.length !== 2) throw illegal(this.param, 'BETWEEN bounds');
      return {
        kind: 'between',
        expr: this.expr(node.left),
        low: this.expr(bounds[0]),
        high: this.expr(bounds[1]),
        negated: op === 'NOT BETWEEN',
      };
    }
    throw illegal(this.param, `operator ${op}`);
  }

  private call(node: Node): Expr {
    const parts = node.name?.name;
    const name = Array.isArray(parts) && parts.length === 1 ? String(parts[0]?.value ?? '') : '';
    if (Array.isArray(parts) && parts.length > 1) throw illegal(this.param, 'qualified function name');
    const fn = name.toUpperCase() as ExprFunction;
    if (!EXPR_FUNCTIONS.includes(fn)) throw illegal(this.param, `function ${name.toUpperCase() || '?'}`);
    if (node.over) throw illegal(this.param, 'window function');
    const args = node.args?.value ?? [];
    if (!Array.isArray(args)) throw illegal(this.param, `arguments of ${fn}`);
    return { kind: 'call', fn, args: args.map((a: Node) => this.expr(a)) };
  }

  private aggregate(node: Node): Expr {
    const fn = String(node.name).toUpperCase() as ExprFunction;
    if (!['COUNT', 'MIN', 'MAX', 'SUM', 'AVG'].includes(fn)) throw illegal(this.param, `function ${fn}`);
    if (node.over || node.args?.orderby) throw illegal(this.param, `${fn} options`);
    const arg = node.args?.expr;
    const e: Expr = arg?.type === 'star' ? { kind: 'star' } : this.expr(arg);
    if (e.kind === 'star' && fn !== 'COUNT') throw illegal(this.param, `${fn}(*)`);
    return { kind: 'call', fn, args: [e], distinct: node.args?.distinct === 'DISTINCT' };
  }

  private match(node: Node): Expr {
    const columns = node.columns;
    if (!Array.isArray(columns) || columns.length !== 1) {
      throw illegal(this.param, 'MATCH on more than one column (name one full-text column)');
    }
    const column = this.column(columns[0]);
    if (column.kind !== 'column') throw illegal(this.param, 'MATCH column');
    const table = this.scope.tables[0];
    if (this.scope.tables.length !== 1 || !table) throw illegal(this.param, 'MATCH on several tables');
    if (!table.fulltextColumns.has(column.name)) {
      throw illegal(this.param, `MATCH on ${column.name}, which has no full-text index`);
    }
    const mode = node.mode?.value ? String(node.mode.value).toUpperCase() : '';
    if (mode !== '' && mode !== 'IN BOOLEAN MODE' && mode !== 'IN NATURAL LANGUAGE MODE') {
      throw illegal(this.param, `MATCH mode ${mode}`);
    }
    const against = this.expr(node.expr);
    if (against.kind !== 'literal' || typeof against.value !== 'string') {
      throw illegal(this.param, 'AGAINST needs a quoted text');
    }
    let search: ReturnType<typeof parseSearchQuery>;
    try {
      search = parseSearchQuery(against.value);
    } catch {
      throw illegal(this.param, 'AGAINST text has no word to search for');
    }
    return { kind: 'match', table: table.name, column: column.name, search };
  }
}

function describe(node: Node): string {
  const type = String(node?.type ?? 'expression');
  const labels: Record<string, string> = {
    var: 'variable',
    param: 'parameter',
    interval: 'INTERVAL',
    case: 'CASE',
    cast: 'CAST',
    hex_string: 'hex literal',
    bit_string: 'bit literal',
    full_hex_string: 'hex literal',
    extract: 'EXTRACT',
    star: '*',
  };
  return (Object.hasOwn(labels, type) ? labels[type] : undefined) ?? type.replaceAll('_', ' ');
}

const QUOTE = (name: string) => `\`${name.replaceAll('`', '``')}\``;

/** `sql_filter` (and `filter`-style parameters): one boolean condition. */
export function parseCondition(param: string, fragment: string, scope: FragmentScope): Expr {
  const table = scope.tables[0]!.name;
  const ast = parseOne(param, `SELECT 1 FROM ${QUOTE(table)} WHERE (${fragment}\n)`, fragment);
  checkShape(param, ast, new Set(['where']));
  return new Converter(param, scope).expr(ast.where);
}

function convertItems(
  param: string,
  columns: Node,
  scope: FragmentScope,
  converter: Converter,
): SelectItem[] {
  if (columns === '*') return expandStar(scope);
  if (!Array.isArray(columns)) throw illegal(param, 'field list');
  const items: SelectItem[] = [];
  for (const col of columns) {
    const expr = converter.expr(col.expr);
    const as = typeof col.as === 'string' ? col.as : (col.as?.value ?? undefined);
    if (as !== undefined && (typeof as !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(as))) {
      throw illegal(param, 'alias');
    }
    if (expr.kind === 'star') {
      if (as !== undefined) throw illegal(param, '* AS');
      items.push(...expandStar(scope));
    } else if (expr.kind === 'column' && as === undefined) {
      items.push({ expr, as: expr.name });
    } else {
      items.push({ expr, as: as ?? defaultAlias(expr, items.length) });
    }
  }
  return items;
}

/** MariaDB names an unaliased expression by its text; ours are named by position instead. */
function defaultAlias(expr: Expr, index: number): string {
  return expr.kind === 'call' ? `${expr.fn.toLowerCase()}_${index + 1}` : `expr_${index + 1}`;
}

function expandStar(scope: FragmentScope): SelectItem[] {
  return scope.tables[0]!.columns.filter((c) => c.name !== 'id').map((c) => ({
    expr: { kind: 'column', name: c.name } as Expr,
    as: c.name,
  }));
}

/** `ar_fields`: a field list, each item a column, `*`, or an allowed expression with AS. */
export function parseFieldList(param: string, fragment: string, scope: FragmentScope): FieldList {
  const table = scope.tables[0]!.name;
  const ast = parseOne(param, `SELECT ${fragment}\n FROM ${QUOTE(table)}`, fragment);
  checkShape(param, ast, new Set(['distinct']));
  const items = convertItems(param, ast.columns, scope, new Converter(param, scope));
  return { items, distinct: ast.distinct === 'DISTINCT' };
}

/** `order`: expressions with ASC / DESC; a leading ORDER BY is tolerated as the spec says. */
export function parseOrder(param: string, fragment: string, scope: FragmentScope): ExprOrder[] {
  const table = scope.tables[0]!.name;
  const text = fragment.replace(/^\s*order\s+by\s+/i, '');
  const ast = parseOne(param, `SELECT 1 FROM ${QUOTE(table)} ORDER BY ${text}\n`, text);
  checkShape(param, ast, new Set(['orderby']));
  const converter = new Converter(param, scope);
  return (ast.orderby as Node[]).map((o) => ({
    expr: converter.expr(o.expr),
    desc: String(o.type ?? '').toUpperCase() === 'DESC',
  }));
}

/** `group`: GROUP BY expressions. */
export function parseGroup(param: string, fragment: string, scope: FragmentScope): Expr[] {
  const table = scope.tables[0]!.name;
  const text = fragment.replace(/^\s*group\s+by\s+/i, '');
  const ast = parseOne(param, `SELECT 1 FROM ${QUOTE(table)} GROUP BY ${text}\n`, text);
  checkShape(param, ast, new Set(['groupby']));
  const converter = new Converter(param, scope);
  return (ast.groupby.columns as Node[]).map((g) => converter.expr(g));
}

/** `sql_fullselect`: SELECT fields FROM one table [WHERE condition]. */
export function parseFullSelect(
  param: string,
  sql: string,
  lookup: (table: string) => TableInfo | undefined,
): { table: TableInfo; fields: FieldList; where?: Expr } {
  const ast = parseOne(param, sql);
  checkShape(param, ast, new Set(['where', 'distinct']));
  const from = ast.from;
  if (!Array.isArray(from) || from.length !== 1) throw illegal(param, 'FROM must name one table (no joins)');
  const source = from[0];
  if (source.expr || source.join || source.db) {
    throw illegal(param, source.db ? 'reference to another database' : 'FROM subquery or join');
  }
  const table = typeof source.table === 'string' ? lookup(source.table) : undefined;
  if (!table) throw illegal(param, `unknown table ${String(source.table)}`);
  const scope: FragmentScope = { tables: [table] };
  const converter = new Converter(param, scope);
  const items = convertItems(param, ast.columns, scope, converter);
  const where = ast.where ? converter.expr(ast.where) : undefined;
  return { table, fields: { items, distinct: ast.distinct === 'DISTINCT' }, where };
}
