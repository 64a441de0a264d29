/**
 * `process_result` of `records` (spec 3.1): only the five named functions are permitted
 * (upstream called any class's static method of that name, spec 5.11: refused here).
 */
import { optObject, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';
import type { V1Row } from '../v1-rows.js';

export const PROCESS_RESULT_FUNCTIONS = [
  'add_parents_and_children_recursive',
  'add_parents_or_children',
  'break_down_totals',
  'sum_totals',
  'resolve_indexation_fragments',
] as const;

export async function applyProcessResult(call: V1Call, rows: V1Row[]): Promise<V1Row[]> {
  const spec = optObject(call.options, 'process_result');
  if (spec === undefined) return rows;
  const fn = typeof spec.fn === 'string' ? spec.fn.replace(/^process_result::/, '') : '';
  if (!(PROCESS_RESULT_FUNCTIONS as readonly string[]).includes(fn)) {
    throw new V1Error(`Error. process_result function not allowed: ${fn || '(none)'}`);
  }
  throw new V1Error(`Error. process_result ${fn} is not supported by this server yet`);
}
