/**
 * `dd_core_api.start`: the page a client shows first. Without a session it is the login element
 * (dd229) context, so the client renders the login form. With one it is the context of the
 * element `options.search_obj` names (the page's URL variables: t/tipo, st/section_tipo,
 * id/section_id, m/mode, view, tool, or a whole locator), in the session's languages, plus the
 * menu (areas and sections from the ontology) when `options.menu` is true.
 *
 * Permissions: the caller needs read access (level >= 1) on the element's (section_tipo, tipo),
 * else 403 `perm.denied`; global admins pass. The root area and its page elements (menu,
 * login) are the page shell every active user may open. The menu lists only the sections and
 * areas the user can read, plus the areas on the way to them (so the tree stays connected).
 */

import { assertCan, PermissionDenied, type UserAccess } from '../../auth/permissions.js';
import { userNames } from '../../auth/user-names.js';
import { DEFAULT_LANG, elementContext, elementType, labelOf } from '../../context/element-context.js';
import type { ActionContext, ActionDefinition } from '../../dispatch/action-registry.js';
import { WorkError } from '../../dispatch/error-registry.js';
import { isAreaModel, isComponentModel } from '../../ontology/component-models.js';
import { NO_LANG, type Ontology } from '../../ontology/load-ontology.js';
import { TIPO_PATTERN } from '../../ontology/ontology-schema.js';
import { isOntologyEditingTipo } from '../../ontology/ontology-sections.js';
import { type Fields, firstOf, objectField, optionalBoolean, optionalObject } from '../rqo-fields.js';
import { parseSectionId, type SectionId } from '../section-id.js';

export const LOGIN_TIPO = 'dd229';
export const MENU_TIPO = 'dd85';

export const ELEMENT_MODES = ['edit', 'list', 'search', 'tm'] as const;

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
    label: labelOf(login, DEFAULT_LANG),
    permissions: 1,
    // render_login.js finds its form fields here: the username (dd255), the password and the
    // button (dd259).
    properties: {
      login_items: [
        { tipo: 'dd255', model: 'component_input_text', type: 'username', label: 'User' },
        { tipo: 'dd256', model: 'component_password', type: 'password', label: 'Password' },
        { tipo: 'dd259', model: 'button_login', type: 'button', label: 'Enter' },
      ],
    },
  };
}

interface PageTarget {
  tipo: string;
  sectionTipo: string;
  sectionId?: SectionId;
  mode: string;
  view?: string;
  tool?: string;
}

function tipoValue(entry: [string, unknown] | undefined): string | undefined {
  if (!entry) return undefined;
  const [name, value] = entry;
  if (typeof value !== 'string' || !TIPO_PATTERN.test(value)) {
    throw new WorkError('rqo.invalid_field', `options.search_obj.${name} must be a tipo like oh1`);
  }
  return value;
}

function shortString(entry: [string, unknown] | undefined): string | undefined {
  if (!entry) return undefined;
  const [name, value] = entry;
  if (typeof value !== 'string' || value.length > 64) {
    throw new WorkError('rqo.invalid_field', `options.search_obj.${name} must be a short string`);
  }
  return value;
}

/** Reads the URL variables; a `locator` fills what the short names leave out. */
function pageTarget(searchObj: Fields, ctx: ActionContext): PageTarget {
  const locator = optionalObject(searchObj, 'locator', 'options.search_obj.locator') ?? {};
  const tipo =
    tipoValue(firstOf(searchObj, ['t', 'tipo'])) ??
    tipoValue(firstOf(locator, ['tipo', 'section_tipo'])) ??
    ctx.ontology.rootTipo;
  const node = ctx.ontology.node(tipo);
  if (!node) throw new WorkError('element.unknown_tipo', `No element of the ontology has the tipo "${tipo}"`);
  const sectionTipo =
    tipoValue(firstOf(searchObj, ['st', 'section_tipo'])) ??
    tipoValue(firstOf(locator, ['section_tipo'])) ??
    (node.model === 'section' || isAreaModel(node.model) ? node.tipo : ctx.ontology.sectionOf(tipo)?.tipo) ??
    node.tipo;
  if (!ctx.ontology.node(sectionTipo)) {
    throw new WorkError('element.unknown_tipo', `No element of the ontology has the tipo "${sectionTipo}"`);
  }
  const idEntry = firstOf(searchObj, ['id', 'section_id']) ?? firstOf(locator, ['section_id']);
  const sectionId = idEntry ? parseSectionId(idEntry[1], `options.search_obj.${idEntry[0]}`, ctx) : undefined;
  const mode = shortString(firstOf(searchObj, ['m', 'mode'])) ?? (sectionId === undefined ? 'list' : 'edit');
  if (!(ELEMENT_MODES as readonly string[]).includes(mode)) {
    throw new WorkError(
      'rqo.invalid_field',
      `options.search_obj.m must be one of ${ELEMENT_MODES.join(', ')}`,
    );
  }
  const view = shortString(firstOf(searchObj, ['view']));
  const tool = shortString(firstOf(searchObj, ['tool']));
  return {
    tipo,
    sectionTipo,
    mode,
    ...(sectionId !== undefined ? { sectionId } : {}),
    ...(view !== undefined ? { view } : {}),
    ...(tool !== undefined ? { tool } : {}),
  };
}

function pageContext(
  target: PageTarget,
  ontology: Ontology,
  langs: { application: string; data: string },
  access: UserAccess,
) {
  const node = ontology.node(target.tipo)!;
  if (node.model === 'section' || isComponentModel(node.model)) {
    // The full element context: permissions, request_config, columns (what section.js builds from).
    return {
      ...elementContext(ontology, access, node, {
        sectionTipo: target.sectionTipo,
        mode: target.mode,
        lang: langs.data,
        ...(target.sectionId !== undefined ? { sectionId: target.sectionId } : {}),
      }),
      view: target.view ?? 'default',
      ...(target.tool !== undefined ? { tool: target.tool } : {}),
    };
  }
  const translatable = node.translatable === true;
  return {
    typo: 'ddo',
    type: elementType(node),
    tipo: node.tipo,
    section_tipo: target.sectionTipo,
    ...(target.sectionId !== undefined ? { section_id: target.sectionId } : {}),
    model: node.model,
    parent: node.parent,
    // Built without source.lang: the session's data language (lg-nolan for untranslatable data).
    lang: isComponentModel(node.model) && !translatable ? NO_LANG : langs.data,
    mode: target.mode,
    view: target.view ?? 'default',
    ...(target.tool !== undefined ? { tool: target.tool } : {}),
    label: labelOf(node, langs.application),
    permissions: access.level(target.sectionTipo, node.tipo),
  };
}

interface MenuEntry {
  tipo: string;
  model: string;
  parent: string | null;
  label: string;
  /** false: a profile's grant has no effect here (the ontology's editing surface). */
  grantable?: false;
}

/** The page shell: open to every active user (what it shows is filtered by permissions). */
const shellTipos = (ontology: Ontology) => new Set([ontology.rootTipo, MENU_TIPO, LOGIN_TIPO]);

/** Throws PermissionDenied unless the user may read the page's element. */
function assertCanOpen(access: UserAccess, target: PageTarget, ontology: Ontology): void {
  if (!access.active) throw new PermissionDenied(access.userId, 'inactive', target.sectionTipo, target.tipo);
  if (shellTipos(ontology).has(target.tipo) && target.sectionTipo === target.tipo) return;
  assertCan(access, 'read', target.sectionTipo, target.tipo);
}

/**
 * Readable areas and sections in ontology order (the menu's tree, flattened with parents). An
 * area the user cannot read is still listed when something under it is readable.
 */
function menuContext(ontology: Ontology, langs: { application: string; data: string }, access: UserAccess) {
  const menu = ontology.node(MENU_TIPO);
  if (!menu) throw new Error(`the ontology has no menu element ${MENU_TIPO}`);
  const walk = (tipo: string): MenuEntry[] => {
    const entries: MenuEntry[] = [];
    for (const child of ontology.children(tipo)) {
      if (!isAreaModel(child.model) && child.model !== 'section') continue;
      // A section that only lends its components (the ontology's template) says `menu: false`.
      if (child.properties?.menu === false) continue;
      const below = child.model === 'section' ? [] : walk(child.tipo);
      if (below.length === 0 && !access.can('read', child.tipo)) continue;
      entries.push(
        {
          tipo: child.tipo,
          model: child.model,
          parent: child.parent,
          label: labelOf(child, langs.application),
          ...(isOntologyEditingTipo(child.tipo) ? { grantable: false as const } : {}),
        },
        ...below,
      );
    }
    return entries;
  };
  const tree = walk(ontology.rootTipo);
  return {
    typo: 'ddo',
    type: 'menu',
    tipo: menu.tipo,
    section_tipo: menu.tipo,
    model: menu.model,
    parent: menu.parent,
    lang: langs.application,
    mode: 'edit',
    label: labelOf(menu, langs.application),
    tree,
  };
}

function environment(ctx: ActionContext, page: Record<string, unknown>) {
  const langs = ctx.ontology.languages
    .filter((l) => l.code !== NO_LANG)
    .map((l) => ({ label: l.label, value: l.code }));
  return {
    page_globals: {
      ...page,
      dedalo_application_langs: langs,
      dedalo_data_langs: langs,
      dedalo_projects_default_langs: langs.map((l) => ({ ...l, tld2: l.value.slice(3, 5) })),
      dedalo_data_nolan: NO_LANG,
      dedalo_application_langs_default: DEFAULT_LANG,
    },
    // What the stock client reads from plain_vars: locks are on, so it sends focus / blur
    // (dd_utils_api.update_lock_components_state) and renews a focus while editing.
    plain_vars: { DEDALO_API_URL: ctx.config.basePath, DEDALO_LOCK_COMPONENTS: true },
    get_label: {},
  };
}

export const startAction: ActionDefinition = {
  needsSession: false,
  handle: async (ctx) => {
    const { ontology, session } = ctx;
    if (!session) {
      return {
        data: { context: [loginContext(ontology)], data: [] },
        extensions: {
          environment: environment(ctx, {
            is_logged: false,
            dedalo_application_lang: DEFAULT_LANG,
            dedalo_data_lang: DEFAULT_LANG,
          }),
        },
      };
    }
    const options = objectField(ctx.rqo, 'options');
    const searchObj = optionalObject(options, 'search_obj', 'options.search_obj') ?? {};
    const withMenu = optionalBoolean(options, 'menu', 'options.menu') ?? false;
    const langs = {
      application: session.applicationLang ?? DEFAULT_LANG,
      data: session.dataLang ?? DEFAULT_LANG,
    };
    const target = pageTarget(searchObj, ctx);
    const access = await ctx.permissions.forUser(session.userId);
    // Who is logged in, for the client's header.
    const names = await userNames(ctx.db, session.userId);
    assertCanOpen(access, target, ontology);
    const menu = withMenu ? menuContext(ontology, langs, access) : undefined;
    const context = [...(menu ? [menu] : []), pageContext(target, ontology, langs, access)];
    // menu.js reads the tree from a dd85 data item.
    const data = menu
      ? [{ tipo: MENU_TIPO, section_tipo: MENU_TIPO, tree_datalist: menu.tree, entries: [] }]
      : [];
    return {
      data: { context, data },
      extensions: {
        environment: environment(ctx, {
          is_logged: true,
          is_global_admin: access.globalAdmin,
          is_root: session.userId === -1,
          user_id: session.userId,
          username: names.username,
          full_username: names.full_username,
          csrf_token: session.csrfToken,
          dedalo_application_lang: langs.application,
          dedalo_data_lang: langs.data,
        }),
      },
    };
  },
};
