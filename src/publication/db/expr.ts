/**
 * Expressions richer than the v2 filter conditions (AND / OR / NOT, functions, full-text
 * MATCH), for the legacy v1 API whose clients send SQL fragments. The v1 parser
 * (v1/sql-subset.ts) turns a fragment into this tree after checking every column against the
 * live schema; this module renders the tree for one engine. No text of the client's reaches the
 * SQL: identifiers are quoted from validated names, literals become bound parameters, function
 * names come from the allowlist below, and full-text queries are regenerated from their parsed
 * terms (text/search-query.ts).
 */
import { toFts5Match, toMariadbBoolean } from '../text/search-query.js';
import type { Dialect, Expr, ExprFunction, MatchJoins, SqlValue } from './types.js';

/** The FTS5 external-content table indexing `column` of `table` (SQLite). */
export function ftsTableOf(table: string, column: string): string {
  return `fts_${table}_${column}`;
}

export interface ExprRenderer {
  render(expr: Expr, params: SqlValue[]): string;
}

function renderCall(d: Dialect, fn: ExprFunction, args: string[], distinct: boolean): string {
  const sqlite = d.engine === 'sqlite';
  const list = args.join(', ');
  switch (fn) {
    case 'CHAR_LENGTH':
      return sqlite ? `length(${list})` : `CHAR_LENGTH(${list})`;
    case 'LENGTH':
      // MariaDB's LENGTH counts bytes; SQLite's counts characters unless given a blob.
      return sqlite ? `length(CAST(${list} AS BLOB))` : `LENGTH(${list})`;
    case 'SUBSTRING':
      return sqlite ? `substr(${list})` : `SUBSTRING(${list})`;
    case 'CONCAT':
      // SQLite's concat() treats NULL as '', MariaDB's answers NULL: keep MariaDB's meaning.
      return sqlite ? `(${args.map((a) => `(${a})`).join(' || ')})` : `CONCAT(${list})`;
    case 'COUNT':
    case 'MIN':
    case 'MAX':
    case 'SUM':
    case 'AVG':
      return `${fn}(${distinct ? 'DISTINCT ' : ''}${list})`;
    default:
      return `${fn}(${list})`;
  }
}

export function matchKey(m: Extract<Expr, { kind: 'match' }>): string {
  return `${m.table}\u0000${m.column}\u0000${toFts5Match(m.search)}`;
}

/** Every full-text match in `exprs`, in rendering order. */
export function matchesIn(exprs: readonly (Expr | undefined)[]): Extract<Expr, { kind: 'match' }>[] {
  const out: Extract<Expr, { kind: 'match' }>[] = [];
  const walk = (e: Expr | undefined): void => {
    if (!e) return;
    switch (e.kind) {
      case 'match':
        out.push(e);
        return;
      case 'compare':
        walk(e.left);
        walk(e.right);
        return;
      case 'and':
      case 'or':
        e.items.forEach(walk);
        return;
      case 'not':
        walk(e.expr);
        return;
      case 'in':
        walk(e.expr);
        e.list.forEach(walk);
        return;
      case 'is_null':
        walk(e.expr);
        return;
      case 'between':
        walk(e.expr);
        walk(e.low);
        walk(e.high);
        return;
      case 'call':
        e.args.forEach(walk);
        return;
      default:
        return;
    }
  };
  exprs.forEach(walk);
  return out;
}

/** Renders `expr` for dialect `d`; `joins` names the SQLite full-text matches joined in FROM. */
export function renderExpr(d: Dialect, expr: Expr, params: SqlValue[], joins?: MatchJoins): string {
  const r = (e: Expr) => renderExpr(d, e, params, joins);
  switch (expr.kind) {
    case 'column':
    case 'alias':
      return d.quote(expr.name);
    case 'star':
      return '*';
    case 'literal':
      if (expr.value === null) return 'NULL';
      params.push(expr.value);
      return '?';
    case 'compare': {
      const left = r(expr.left);
      const right = r(expr.right);
      return `(${left} ${expr.op} ${right})`;
    }
    case 'and':
    case 'or':
      return `(${expr.items.map(r).join(expr.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `(NOT ${r(expr.expr)})`;
    case 'in': {
      const left = r(expr.expr);
      return `(${left} ${expr.negated ? 'NOT IN' : 'IN'} (${expr.list.map(r).join(', ')}))`;
    }
    case 'is_null':
      return `(${r(expr.expr)} IS ${expr.negated ? 'NOT ' : ''}NULL)`;
    case 'between': {
      const left = r(expr.expr);
      const low = r(expr.low);
      const high = r(expr.high);
      return `(${left} ${expr.negated ? 'NOT ' : ''}BETWEEN ${low} AND ${high})`;
    }
    case 'call':
      return renderCall(d, expr.fn, expr.args.map(r), expr.distinct === true);
    case 'match': {
      const alias = d.engine === 'sqlite' ? joins?.get(matchKey(expr)) : undefined;
      return alias ? `${d.quote(alias)}.${d.quote('pub_rank')}` : renderMatch(d, expr, params);
    }
  }
}

/**
 * MariaDB: MATCH ... AGAINST in boolean mode, a relevance number (0 when nothing matches, so
 * it also works as a condition). SQLite, when not joined in FROM: the FTS5 table's -bm25 for
 * this row, NULL (false) when the row does not match (one full-text lookup per row: slow, only
 * for expressions outside a select statement's reach).
 */
function renderMatch(d: Dialect, m: Extract<Expr, { kind: 'match' }>, params: SqlValue[]): string {
  if (d.engine === 'sqlite') {
    params.push(toFts5Match(m.search));
    const fts = d.quote(ftsTableOf(m.table, m.column));
    return `(SELECT -bm25(${fts}) FROM ${fts} WHERE ${fts} MATCH ? AND ${fts}.rowid = ${d.quote(m.table)}.rowid)`;
  }
  params.push(toMariadbBoolean(m.search));
  return `MATCH(${d.quote(m.column)}) AGAINST(? IN BOOLEAN MODE)`;
}
