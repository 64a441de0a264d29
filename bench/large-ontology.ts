/**
 * A large ontology for the size benchmark and the tests, generated from a fixed seed (the same
 * nodes every run): `count` nodes (default 20,000) over `tldCount` TLDs (default 40), each TLD an
 * area under the root holding sections of 25 nodes: a section, its `section_list` and
 * `button_new` (models this archive does not implement), two groupers (a `section_tab` holding a
 * `section_group`), and 20 components drawn from every implemented model plus a few it does not
 * implement. Relation components point across TLDs (portals into another TLD's sections, selects
 * and radio buttons into the yes/no list or another TLD's section, filters into projects dd153,
 * parents and children into their own section, indexations into the thesaurus ts1). Labels in
 * English, Spanish and Catalan.
 *
 * `largeOntologyRows` adds these nodes to an archive's stored ontology (one transaction, the TLDs
 * registered in main_dd), hanging every area from the root that is there.
 */
import { COMPONENT_MODELS, isComponentModel } from '../src/work/ontology/component-models.js';
import type { OntologyNode } from '../src/work/ontology/ontology-schema.js';
import { ontologyRows } from '../src/work/ontology/ontology-store.js';
import type { SqlClient } from '../src/work/store/sql-client.js';

/** Models drawn for components: every implemented one, and some this archive does not implement. */
const COMPONENT_POOL = [
  ...Object.keys(COMPONENT_MODELS),
  'component_iri',
  'component_geolocation',
  'component_section_id',
  'component_info',
];

const WORDS = [
  ['Place', 'Lugar', 'Lloc'],
  ['Name', 'Nombre', 'Nom'],
  ['Date', 'Fecha', 'Data'],
  ['Notes', 'Notas', 'Notes'],
  ['Author', 'Autor', 'Autor'],
  ['Source', 'Fuente', 'Font'],
  ['Object', 'Objeto', 'Objecte'],
  ['Event', 'Evento', 'Esdeveniment'],
] as const;

/** mulberry32: a small deterministic generator, so every run builds the same ontology. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 40 TLD names, letters only, none used by the default content: `xa`..`xz`, `ya`..`yn`. */
export function largeTlds(tldCount: number): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: tldCount }, (_, i) => `${'xyzw'[Math.floor(i / 26)]}${letters[i % 26]}`);
}

export interface LargeOntology {
  tlds: { tld: string; name: string }[];
  nodes: OntologyNode[];
}

export function largeOntology(count = 20_000, tldCount = 40, rootTipo = 'dd1', seed = 20_000): LargeOntology {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const tlds = largeTlds(tldCount);
  const perTld = Math.floor(count / tldCount);
  const sectionsPerTld = Math.floor((perTld - 1) / 25);
  const sectionTipo = (t: number, s: number) => `${tlds[t]}${1 + s * 25 + 1}`;
  const label = (i: number, what: string) => {
    const [eng, spa, cat] = WORDS[i % WORDS.length]!;
    return { 'lg-eng': `${eng} ${what}`, 'lg-spa': `${spa} ${what}`, 'lg-cat': `${cat} ${what}` };
  };
  const nodes: OntologyNode[] = [];
  for (const [t, tld] of tlds.entries()) {
    const area = `${tld}1`;
    nodes.push({ tipo: area, parent: rootTipo, model: 'area', label: label(t, tld.toUpperCase()) });
    let n = 2;
    for (let s = 0; s < sectionsPerTld; s++) {
      const section = `${tld}${n++}`;
      nodes.push({ tipo: section, parent: area, model: 'section', label: label(s, `${tld}-${s + 1}`) });
      const first = n + 4;
      nodes.push({
        tipo: `${tld}${n++}`,
        parent: section,
        model: 'section_list',
        label: label(0, 'list'),
        properties: { columns: [`${tld}${first}`, `${tld}${first + 1}`] },
      });
      nodes.push({ tipo: `${tld}${n++}`, parent: section, model: 'button_new', label: label(1, 'new') });
      const tab = `${tld}${n++}`;
      nodes.push({ tipo: tab, parent: section, model: 'section_tab', label: label(2, 'tab') });
      const group = `${tld}${n++}`;
      nodes.push({ tipo: group, parent: tab, model: 'section_group', label: label(3, 'group') });
      for (let c = 0; c < 20; c++) {
        const tipo = `${tld}${n++}`;
        // The first two are text, so every section has list columns and datalist labels.
        const model = c < 2 ? 'component_input_text' : pick(COMPONENT_POOL);
        const node: OntologyNode = { tipo, parent: group, model, label: label(c, `${c + 1}`) };
        if (isComponentModel(model) && COMPONENT_MODELS[model].relation) {
          const other = sectionTipo(Math.floor(rnd() * tldCount), Math.floor(rnd() * sectionsPerTld));
          node.target_section_tipo =
            model === 'component_portal'
              ? [other]
              : model === 'component_select' || model === 'component_check_box'
                ? [rnd() < 0.5 ? 'dd64' : other]
                : model === 'component_radio_button'
                  ? ['dd64']
                  : model === 'component_filter' || model === 'component_filter_master'
                    ? ['dd153']
                    : model === 'component_relation_index'
                      ? ['ts1']
                      : [section];
        }
        if (model === 'component_input_text' || model === 'component_text_area')
          node.translatable = c % 2 === 0;
        nodes.push(node);
      }
    }
    // Fill the TLD's share with elements of a model this archive does not implement.
    while (n <= perTld)
      nodes.push({ tipo: `${tld}${n++}`, parent: area, model: 'widget', label: label(n, 'w') });
  }
  return { tlds: tlds.map((tld) => ({ tld, name: `Generated ${tld}` })), nodes };
}

/** Adds a generated ontology to the stored one, in one transaction (the version moves once). */
export async function installLargeOntology(db: SqlClient, large: LargeOntology): Promise<void> {
  const rows = ontologyRows({ languages: [], tlds: large.tlds, nodes: large.nodes });
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO main_dd (tld, name, source)
       SELECT tld, name, 'generated' FROM jsonb_to_recordset($1::text::jsonb) AS r(tld text, name text)`,
      [JSON.stringify(large.tlds)],
    );
    await tx.query(
      `INSERT INTO dd_ontology
         (tipo, parent, term, model, order_number, relations, tld, properties, is_translatable, is_model)
       SELECT tipo, parent, term, model, order_number, relations, tld, properties, is_translatable, is_model
       FROM jsonb_to_recordset($1::text::jsonb) AS r(tipo text, parent text, term jsonb, model text,
         order_number integer, relations jsonb, tld text, properties jsonb, is_translatable boolean,
         is_model boolean)`,
      [JSON.stringify(rows)],
    );
  });
}
