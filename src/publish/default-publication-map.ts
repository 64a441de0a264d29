/**
 * The publication map of the default ontology (src/work/ontology/default-ontology.json): interviews,
 * people, audiovisual records, images and thesaurus terms, in the table and column names the
 * publication API and docs/publishing.md expect. Operators with their own ontology write
 * their own map as JSON (`npm run publish -- --print-map` prints this one to start from) and
 * point PUBLICATION_MAP at it.
 */
import type { PublicationMap } from './publication-map-schema.js';

export const DEFAULT_PUBLICATION_MAP: PublicationMap = {
  version: 1,
  languages: ['lg-spa', 'lg-eng', 'lg-cat', 'lg-fra'],
  fallback: 'first',
  tables: [
    {
      section_tipo: 'oh1',
      table: 'interview',
      translatable: true,
      publishable: 'oh32',
      dd_relations: true,
      columns: [
        { name: 'code', component: 'oh14', value: 'text', type: 'varchar', full_text: false },
        { name: 'title', component: 'oh16', value: 'text', type: 'varchar', full_text: true },
        { name: 'abstract', component: 'oh23', value: 'text', type: 'text', full_text: true },
        { name: 'date', component: 'oh29', value: 'date', type: 'date', full_text: false },
        { name: 'informant', component: 'oh24', value: 'ids', type: 'text', full_text: false },
        { name: 'audiovisual', component: 'oh25', value: 'ids', type: 'text', full_text: false },
        { name: 'image', component: 'oh17', value: 'ids', type: 'text', full_text: false },
        {
          name: 'transcription',
          via: 'oh25',
          component: 'rsc36',
          value: 'text',
          type: 'text',
          full_text: true,
        },
        {
          name: 'duration',
          via: 'oh25',
          component: 'rsc54',
          value: 'number',
          type: 'real',
          full_text: false,
        },
      ],
    },
    {
      section_tipo: 'rsc197',
      table: 'informant',
      translatable: false,
      dd_relations: true,
      columns: [
        { name: 'name', component: 'rsc85', value: 'text', type: 'varchar', full_text: false },
        { name: 'surname', component: 'rsc86', value: 'text', type: 'varchar', full_text: false },
        { name: 'birth_date', component: 'rsc89', value: 'date', type: 'date', full_text: false },
      ],
    },
    {
      section_tipo: 'rsc167',
      table: 'audiovisual',
      translatable: true,
      dd_relations: true,
      columns: [
        { name: 'video', component: 'rsc35', value: 'media', type: 'varchar', full_text: false },
        { name: 'duration', component: 'rsc54', value: 'number', type: 'real', full_text: false },
        { name: 'transcription', component: 'rsc36', value: 'text', type: 'text', full_text: false },
      ],
    },
    {
      section_tipo: 'rsc170',
      table: 'image',
      translatable: false,
      dd_relations: true,
      columns: [{ name: 'image', component: 'rsc29', value: 'media', type: 'varchar', full_text: false }],
    },
    {
      section_tipo: 'ts1',
      table: 'ts_themes',
      translatable: true,
      dd_relations: false,
      columns: [
        { name: 'term_id', value: 'section_term_id', type: 'varchar', full_text: false },
        { name: 'term', component: 'hierarchy25', value: 'text', type: 'varchar', full_text: false },
        { name: 'parent', component: 'hierarchy36', value: 'term_ids', type: 'varchar', full_text: false },
        { name: 'children', component: 'hierarchy49', value: 'locators', type: 'text', full_text: false },
        { name: 'indexation', component: 'hierarchy40', value: 'indexation', type: 'text', full_text: false },
      ],
    },
  ],
};
