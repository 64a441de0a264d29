/**
 * Every MCP tool of the publication API, in the order tools/list shows them: discovery first,
 * then records, then fragments (roughly the order an agent needs them in).
 */
import { catalogTools } from './catalog-tools.js';
import { fragmentTools } from './fragment-tools.js';
import { recordTools } from './record-tools.js';
import { dbArg } from './tool-args.js';
import type { McpTool } from './tool-definition.js';

/** `dbNames`: the published databases, named in the `db` argument's description. */
export function buildToolCatalogue(dbNames: readonly string[]): McpTool[] {
  const db = dbArg(dbNames);
  return [...catalogTools(db), ...recordTools(db), ...fragmentTools(db)];
}
