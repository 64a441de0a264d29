/**
 * The v1 action table and its dispatcher. Every door (the json/{action} route, each call of a
 * combi batch) runs an action through `dispatch`, so errors take the same v1 shape everywhere:
 * HTTP 200 with `{result:false, msg}`, never a 500 (docs/publication-v1.md).
 */

import { fragmentFromIndexLocatorAction, freeSearchAction, reelTermsAction } from './actions/av.js';
import {
  fullInterviewAction,
  fullReelAction,
  imageDataAction,
  indexationNodeAction,
  reelFragmentsOfTypeAction,
  videoViewDataAction,
} from './actions/av-views.js';
import {
  publicationSchemaAction,
  tablesInfoAction,
  tableThesaurusAction,
  tableThesaurusMapAction,
} from './actions/catalog.js';
import { combiAction } from './actions/combi.js';
import { globalSearchJsonAction } from './actions/global-search-json.js';
import { recordsAction } from './actions/records.js';
import { bibliographyRowsAction, globalSearchAction, textFragmentAction } from './actions/texts.js';
import {
  autocompleteAction,
  childrenAction,
  menuTreePlainAction,
  parentsAction,
  randomTermAction,
  rootListAction,
  searchAction,
  termAction,
} from './actions/thesaurus.js';
import type { V1Action, V1Call } from './v1-call.js';
import { failureBody } from './v1-errors.js';

const notSupported =
  (what: string): V1Action =>
  async () => ({ result: false, msg: `Error. ${what} is not supported by this server` });

export const ACTIONS: Record<string, V1Action> = {
  records: recordsAction,
  tables_info: tablesInfoAction,
  publication_schema: publicationSchemaAction,
  table_thesaurus: tableThesaurusAction,
  table_thesaurus_map: tableThesaurusMapAction,
  combi: (call) => combiAction(call, dispatch),
  thesaurus_root_list: rootListAction,
  thesaurus_term: termAction,
  thesaurus_children: childrenAction,
  // The older name (docs/publication-v1.md): both are served.
  thesaurus_childrens: childrenAction,
  thesaurus_parents: parentsAction,
  thesaurus_autocomplete: autocompleteAction,
  thesaurus_search: searchAction,
  thesaurus_random_term: randomTermAction,
  menu_tree_plain: menuTreePlainAction,
  fragment_from_index_locator: fragmentFromIndexLocatorAction,
  reel_terms: reelTermsAction,
  free_search: freeSearchAction,
  reel_fragments_of_type: reelFragmentsOfTypeAction,
  full_reel: fullReelAction,
  full_interview: fullInterviewAction,
  thesaurus_indexation_node: indexationNodeAction,
  thesaurus_video_view_data: videoViewDataAction,
  image_data: imageDataAction,
  text_fragment: textFragmentAction,
  bibliography_rows: bibliographyRowsAction,
  global_search: globalSearchAction,
  global_search_json: globalSearchJsonAction,
  global_search_mdcat: globalSearchJsonAction,
  search_tipos: notSupported('search_tipos (a Numisdata-specific query)'),
};

export async function dispatch(call: V1Call, action: string): Promise<unknown> {
  const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!run) return { result: false, msg: `Error. Undefined method (dedalo_get) : ${action}` };
  try {
    return await run(call);
  } catch (err) {
    const { body, serverFault } = failureBody(err);
    if (serverFault) call.log.error({ err, action }, 'v1 action failed');
    return body;
  }
}
