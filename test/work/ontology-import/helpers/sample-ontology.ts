/**
 * Ontologies for the reader tests, written for them from the model list (no Dédalo data): the
 * fixture TLD `mus` (a small museum catalogue covering every model the archive implements, some
 * it does not, relations into other TLDs (numisdata is never installed), mandatory/unique
 * properties, labels in es/ca/en and on a few nodes fr and it, which the archive does not offer), and a
 * generator of large ontologies (20,000 nodes over 40 TLDs by default).
 */
import { COMPONENT_MODELS } from '../../../../src/work/ontology/component-models.js';
import type { ImportNode } from '../../../../src/work/ontology/import/import-node.js';

/** Models the fixture uses that the archive does not implement. */
export const UNIMPLEMENTED_IN_FIXTURE = [
  'component_iri',
  'component_geolocation',
  'component_3d',
  'component_svg',
  'section_list',
  'button_new',
  'matrix_table',
] as const;

const MODEL_NAMES = [
  'area',
  'section',
  'section_group',
  ...Object.keys(COMPONENT_MODELS),
  ...UNIMPLEMENTED_IN_FIXTURE,
] as const;

function node(partial: Partial<ImportNode> & Pick<ImportNode, 'tipo' | 'term'>): ImportNode {
  return {
    parent: null,
    model: null,
    is_model: false,
    order: null,
    tld: /^[a-z]+/.exec(partial.tipo)![0],
    translatable: false,
    relations: [],
    properties: null,
    ...partial,
  };
}

/** The model nodes (TLD dd, tipos dd9001...): a model node's label is the model name. */
export function modelNodes(names: readonly string[] = MODEL_NAMES): ImportNode[] {
  return [
    node({ tipo: 'dd9000', term: { 'lg-spa': 'Modelos', 'lg-eng': 'Models' }, order: 1 }),
    ...names.map((name, i) =>
      node({
        tipo: `dd${9001 + i}`,
        parent: 'dd9000',
        is_model: true,
        order: i + 1,
        term: { 'lg-spa': name },
      }),
    ),
  ];
}

const L = (spa: string, cat: string, eng: string) => ({ 'lg-spa': spa, 'lg-cat': cat, 'lg-eng': eng });

/** The `mus` TLD plus the model nodes and the matrix table node it references. */
export function museumOntology(): ImportNode[] {
  let order = 0;
  const c = (
    tipo: string,
    parent: string,
    model: string,
    term: Record<string, string>,
    more: Partial<ImportNode> = {},
  ): ImportNode => node({ tipo, parent, model, term, order: ++order, ...more });
  const mus: ImportNode[] = [
    c(
      'mus1',
      '',
      'area',
      { ...L('Museo', 'Museu', 'Museum'), 'lg-fra': 'Musée', 'lg-ita': 'Museo' },
      { parent: null },
    ),
    c(
      'mus2',
      'mus1',
      'section',
      { ...L('Objetos', 'Objectes', 'Objects'), 'lg-fra': 'Objets', 'lg-ita': 'Oggetti' },
      { relations: ['dd9100'] },
    ),
    c('mus3', 'mus2', 'section_group', L('Identificación', 'Identificació', 'Identification')),
    c(
      'mus4',
      'mus3',
      'component_input_text',
      {
        ...L('Número de inventario', "Número d'inventari", 'Inventory number'),
        'lg-fra': "Numéro d'inventaire",
        'lg-ita': 'Numero di inventario',
      },
      {
        properties: { mandatory: true, unique: true },
      },
    ),
    c('mus5', 'mus3', 'component_input_text', L('Título', 'Títol', 'Title'), {
      translatable: true,
      properties: { mandatory: true },
    }),
    c('mus6', 'mus3', 'component_text_area', L('Descripción', 'Descripció', 'Description'), {
      translatable: true,
      properties: {
        note: 'línea 1\nlínea 2\tcon tab, \\ barra y \'comillas\' "dobles"',
        css: { width: '100%' },
      },
    }),
    c('mus7', 'mus3', 'component_number', L('Altura (cm)', 'Alçada (cm)', 'Height (cm)')),
    c('mus8', 'mus3', 'component_date', L('Fecha de ingreso', "Data d'ingrés", 'Date of entry'), {
      properties: { date_mode: 'date' },
    }),
    c('mus9', 'mus3', 'component_email', L('Correo del donante', 'Correu del donant', "Donor's email")),
    c('mus10', 'mus2', 'section_group', L('Relaciones', 'Relacions', 'Relations')),
    c('mus11', 'mus10', 'component_portal', L('Autor', 'Autor', 'Author'), { relations: ['rsc197'] }),
    c('mus12', 'mus10', 'component_portal', L('Exposiciones', 'Exposicions', 'Exhibitions'), {
      relations: ['mus30'],
    }),
    c('mus13', 'mus10', 'component_select', L('Material principal', 'Material principal', 'Main material'), {
      relations: ['mus40'],
    }),
    c('mus14', 'mus10', 'component_radio_button', L('Expuesto', 'Exposat', 'On display'), {
      relations: ['dd64'],
    }),
    c('mus15', 'mus10', 'component_check_box', L('Materiales', 'Materials', 'Materials'), {
      relations: ['mus40'],
    }),
    c('mus16', 'mus10', 'component_relation_parent', L('Término padre', 'Terme pare', 'Parent term'), {
      relations: ['mus50'],
    }),
    c('mus17', 'mus10', 'component_relation_index', L('Indexación', 'Indexació', 'Indexing'), {
      relations: ['ts1', 'numisdata3'],
    }),
    c('mus18', 'mus2', 'section_group', L('Medios', 'Mitjans', 'Media')),
    c('mus19', 'mus18', 'component_image', L('Imagen', 'Imatge', 'Image')),
    c('mus20', 'mus18', 'component_av', L('Vídeo', 'Vídeo', 'Video')),
    c('mus21', 'mus18', 'component_pdf', L('Documento', 'Document', 'Document')),
    c('mus22', 'mus18', 'component_3d', L('Modelo 3D', 'Model 3D', '3D model')),
    c('mus23', 'mus18', 'component_svg', L('Dibujo', 'Dibuix', 'Drawing')),
    c('mus24', 'mus2', 'section_group', L('Gestión', 'Gestió', 'Management')),
    c('mus25', 'mus24', 'component_filter', L('Proyecto', 'Projecte', 'Project'), { relations: ['dd153'] }),
    c('mus26', 'mus24', 'component_json', L('Datos técnicos', 'Dades tècniques', 'Technical data')),
    c('mus27', 'mus24', 'component_iri', L('Enlace externo', 'Enllaç extern', 'External link')),
    c('mus28', 'mus24', 'component_geolocation', L('Ubicación', 'Ubicació', 'Location')),
    c('mus29', 'mus2', 'section_list', L('Listado', 'Llistat', 'List'), {
      relations: ['mus4', 'mus5', 'mus13'],
    }),
    c('mus30', 'mus1', 'section', L('Exposiciones', 'Exposicions', 'Exhibitions'), { relations: ['dd9100'] }),
    c('mus31', 'mus30', 'component_input_text', L('Nombre', 'Nom', 'Name'), {
      translatable: true,
      properties: { mandatory: true },
    }),
    c('mus32', 'mus30', 'component_date', L('Inauguración', 'Inauguració', 'Opening'), {
      properties: { date_mode: 'range' },
    }),
    c('mus33', 'mus30', 'component_portal', L('Objetos expuestos', 'Objectes exposats', 'Objects shown'), {
      relations: ['mus2'],
    }),
    c('mus35', 'mus30', 'component_portal', L('Monedas', 'Monedes', 'Coins'), { relations: ['numisdata1'] }),
    c('mus34', 'mus30', 'button_new', L('Nueva exposición', 'Nova exposició', 'New exhibition')),
    c('mus40', 'mus1', 'section', L('Materiales', 'Materials', 'Materials'), { relations: ['dd9100'] }),
    c('mus41', 'mus40', 'component_input_text', L('Material', 'Material', 'Material'), {
      translatable: true,
      properties: { mandatory: true, unique: true },
    }),
    c('mus42', 'mus40', 'component_number', L('Orden', 'Ordre', 'Order')),
    c('mus50', 'mus1', 'section', L('Tesauro de objetos', "Tesaurus d'objectes", 'Object thesaurus'), {
      relations: ['dd9100'],
    }),
    c('mus51', 'mus50', 'component_input_text', L('Término', 'Terme', 'Term'), { translatable: true }),
    c('mus52', 'mus50', 'component_relation_parent', L('Padre', 'Pare', 'Parent'), { relations: ['mus50'] }),
    c('mus53', 'mus50', 'component_relation_children', L('Hijos', 'Fills', 'Children'), {
      relations: ['mus50'],
    }),
    c('mus60', 'mus1', 'section', L('Accesos del catálogo', 'Accessos del catàleg', 'Catalogue accounts'), {
      relations: ['dd9100'],
    }),
    c('mus61', 'mus60', 'component_input_text', L('Usuario', 'Usuari', 'User'), {
      properties: { mandatory: true, unique: true },
    }),
    c('mus62', 'mus60', 'component_password', L('Contraseña', 'Contrasenya', 'Password')),
    c('mus63', 'mus60', 'component_security_access', L('Permisos', 'Permisos', 'Permissions')),
    c('mus64', 'mus60', 'component_filter_master', L('Proyectos', 'Projectes', 'Projects'), {
      relations: ['dd153'],
    }),
  ];
  const models = modelNodes();
  const table = node({
    tipo: 'dd9100',
    parent: 'dd9000',
    model: 'matrix_table',
    term: { 'lg-spa': 'matrix' },
    order: 100,
  });
  return [...models, table, ...mus];
}

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'objeto',
  'peça',
  'moneda',
  'Münze',
  'façana',
  'σφραγίδα',
  'خاتم',
  '印章',
  'tab\there',
  'line\nbreak',
];

/**
 * A large ontology: `tlds` TLDs (`dd` holding the model nodes, then `ga`, `gb`, ...) of
 * `total / tlds` nodes each: areas, sections, groups and components of every model, relations
 * into other TLDs (and into `zz`, which is never present).
 */
export function largeOntology(total = 20_000, tlds = 40, seed = 1): ImportNode[] {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const names: string[] = ['dd'];
  for (let i = 0; names.length < tlds; i++)
    names.push(`g${String.fromCharCode(97 + (i % 26))}${i >= 26 ? 'x' : ''}`);
  const perTld = Math.floor(total / tlds);
  const components = [
    ...Object.keys(COMPONENT_MODELS),
    'component_iri',
    'component_geolocation',
    'component_3d',
  ];
  const nodes: ImportNode[] = modelNodes();
  for (const tld of names) {
    let n = tld === 'dd' ? 1 : 0;
    let count = tld === 'dd' ? nodes.length : 0;
    const next = () => `${tld}${++n}`;
    const root = tld === 'dd' ? 'dd1' : next();
    nodes.push(
      node({ tipo: root, model: 'area', term: { 'lg-spa': `Área ${tld}`, 'lg-eng': `${tld} area` } }),
    );
    count++;
    let section = root;
    let group = root;
    while (count < perTld) {
      const r = rand();
      const tipo = next();
      if (r < 0.03 || section === root) {
        section = tipo;
        group = tipo;
        nodes.push(
          node({
            tipo,
            parent: root,
            model: 'section',
            order: n,
            term: { 'lg-spa': `Sección ${tipo}`, 'lg-cat': `Secció ${tipo}` },
          }),
        );
      } else if (r < 0.1) {
        group = tipo;
        nodes.push(
          node({
            tipo,
            parent: section,
            model: 'section_group',
            order: n,
            term: { 'lg-eng': `Group ${tipo}` },
          }),
        );
      } else {
        const model = pick(components);
        const relation =
          model in COMPONENT_MODELS && COMPONENT_MODELS[model as keyof typeof COMPONENT_MODELS].relation;
        nodes.push(
          node({
            tipo,
            parent: group,
            model,
            order: n,
            translatable: rand() < 0.3,
            relations: relation ? [rand() < 0.05 ? 'zz1' : `${pick(names)}2`] : [],
            properties:
              rand() < 0.2 ? { mandatory: rand() < 0.5, unique: rand() < 0.2, note: pick(WORDS) } : null,
            term: { 'lg-spa': `${pick(WORDS)} ${tipo}`, 'lg-eng': `${model} ${tipo}` },
          }),
        );
      }
      count++;
    }
  }
  return nodes;
}
