/**
 * `combi` (docs/publication-v1.md): several actions in one request, `ar_calls` = [{id, options:{dedalo_get,
 * ...}}]. Each call runs as if received alone (no "true"/"false" coercion of its options) with
 * the outer request's database and language, under the outer request's statement budget and
 * deadline; each answer gets its `id`. A failing call answers its own v1 error, the others
 * still answer.
 */
import { optObjectList, type V1Call } from '../v1-call.js';
import { V1Error } from '../v1-errors.js';

type Dispatch = (call: V1Call, action: string) => Promise<unknown>;

/** Most calls one combi may carry (each runs at least one statement of the shared budget). */
export const MAX_COMBI_CALLS = 50;

export async function combiAction(call: V1Call, dispatch: Dispatch): Promise<unknown> {
  const calls = optObjectList(call.options, 'ar_calls');
  if (!calls || calls.length === 0) throw new V1Error('Error. ar_calls is mandatory');
  if (calls.length > MAX_COMBI_CALLS)
    throw new V1Error(`Error. ar_calls has more than ${MAX_COMBI_CALLS} calls`);
  const result = await Promise.all(
    calls.map(async (item) => {
      const options = item.options;
      const opts =
        options !== null && typeof options === 'object' && !Array.isArray(options)
          ? { ...(options as Record<string, unknown>) }
          : {};
      const action = typeof opts.dedalo_get === 'string' ? opts.dedalo_get : '';
      const answer =
        action === 'combi'
          ? { result: false, msg: 'Error. combi cannot be nested' }
          : await dispatch({ ...call, options: opts }, action);
      return answer !== null && typeof answer === 'object' && !Array.isArray(answer)
        ? { ...(answer as Record<string, unknown>), id: item.id }
        : { result: answer, id: item.id };
    }),
  );
  return { result, msg: 'web_data::get_combi Ok. Request done' };
}
