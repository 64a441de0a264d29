/**
 * `dd_core_api.start`: the page a client shows first. Without a session it is the login element
 * (dd229) context, so the client renders the login form; the authenticated page (from
 * `options.search_obj`, plus the menu) arrives with the session slice.
 */
import type { ActionDefinition } from '../../dispatch/action-registry.js';
import type { Ontology } from '../../ontology/load-ontology.js';

export const LOGIN_TIPO = 'dd229';

/** Until sessions carry a language choice, the interface and data language. */
export const DEFAULT_LANG = 'lg-eng';

function loginContext(ontology: Ontology) {
  const login = ontology.node(LOGIN_TIPO);
  if (!login) throw new Error(`the ontology has no login element ${LOGIN_TIPO}`);
  return {
    typo: 'ddo',
    type: 'login',
    tipo: login.tipo,
    section_tipo: login.tipo,
    model: login.model,
    parent: login.parent,
    lang: DEFAULT_LANG,
    mode: 'edit',
    label: login.label[DEFAULT_LANG] ?? login.tipo,
    permissions: 1,
  };
}

export const startAction: ActionDefinition = {
  needsSession: false,
  handle: async ({ ontology }) => ({
    data: { context: [loginContext(ontology)], data: [] },
    extensions: {
      environment: {
        page_globals: {
          is_logged: false,
          dedalo_application_lang: DEFAULT_LANG,
          dedalo_data_lang: DEFAULT_LANG,
          dedalo_application_langs: ontology.languages.filter((l) => l.code !== 'lg-nolan'),
        },
        plain_vars: {},
        get_label: {},
      },
    },
  }),
};
