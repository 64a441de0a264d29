/**
 * A small oral-history archive written straight into a work database (through the store, as
 * work-records.ts does): three interviews (the third not publishable), two people, an audiovisual
 * record with a two-language transcription, an image and two thesaurus terms. Publishing tests
 * check the published rows against exactly these values.
 */
import type { Ontology } from '../../src/work/ontology/load-ontology.js';
import type { SqlQueryable } from '../../src/work/store/sql-client.js';
import { date, insertRecordValues, locator, text } from './work-records.js';

export const YES = (tipo: string) => [{ ...locator(tipo, 'dd64', 1), id: 1 }];
export const NO = (tipo: string) => [{ ...locator(tipo, 'dd64', 2), id: 1 }];

export const TRANSCRIPTION_SPA = '[TC_00:00:01.000_TC] Hablábamos de la cosecha en el pueblo.';
export const TRANSCRIPTION_ENG = '[TC_00:00:01.000_TC] We talked about the harvest in the village.';

export async function seedPublishArchive(db: SqlQueryable, ontology: Ontology): Promise<void> {
  const put = (st: string, id: number, values: Record<string, unknown[]>) =>
    insertRecordValues(db, ontology, st, id, values);
  await put('rsc197', 1, { rsc85: [text('Ana')], rsc86: [text('García López')], rsc89: [date(1931, 2, 3)] });
  await put('rsc197', 2, { rsc85: [text('Joan')], rsc86: [text('Puig')] });
  await put('rsc170', 1, {
    rsc29: [{ id: 1, lang: 'lg-nolan', value: { name: '1.jpg', path: 'images/1.jpg' } }],
  });
  await put('rsc167', 1, {
    rsc35: [{ id: 1, lang: 'lg-nolan', value: { name: '1.mp4', path: 'av/1.mp4' } }],
    rsc36: [text(TRANSCRIPTION_SPA, 'lg-spa', 1), text(TRANSCRIPTION_ENG, 'lg-eng', 2)],
    rsc54: [text('1234.5')],
  });
  await put('oh1', 1, {
    oh14: [text('OH-1')],
    oh16: [text('Título uno', 'lg-spa', 1), text('Title one', 'lg-eng', 2)],
    oh23: [text('Resumen de la cosecha', 'lg-spa', 1)],
    oh24: [
      { ...locator('oh24', 'rsc197', 1), id: 1 },
      { ...locator('oh24', 'rsc197', 2), id: 2 },
    ],
    oh25: [{ ...locator('oh25', 'rsc167', 1), id: 1 }],
    oh17: [{ ...locator('oh17', 'rsc170', 1), id: 1 }],
    oh29: [date(1990, 5, 4)],
    oh32: YES('oh32'),
  });
  await put('oh1', 2, {
    oh14: [text('OH-2')],
    oh16: [text('Título dos', 'lg-spa', 1)],
    oh24: [{ ...locator('oh24', 'rsc197', 1), id: 1 }],
    oh32: YES('oh32'),
  });
  await put('oh1', 3, { oh14: [text('OH-3')], oh16: [text('Secreto', 'lg-spa', 1)], oh32: NO('oh32') });
  await put('ts1', 1, {
    hierarchy25: [text('Guerra', 'lg-spa', 1), text('War', 'lg-eng', 2)],
    hierarchy49: [{ ...locator('hierarchy49', 'ts1', 2, 'dd48'), id: 1 }],
    hierarchy40: [
      {
        id: 1,
        type: 'dd96',
        section_tipo: 'oh1',
        section_id: 1,
        from_component_tipo: 'hierarchy40',
        tag_id: '1',
        tag_component_tipo: 'rsc36',
      },
    ],
  });
  await put('ts1', 2, {
    hierarchy25: [text('Exilio', 'lg-spa', 1)],
    hierarchy36: [{ ...locator('hierarchy36', 'ts1', 1, 'dd47'), id: 1 }],
  });
}
