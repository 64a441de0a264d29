import { describe, expect, it } from 'vitest';
import { indexationMatches, locatorMatches } from '../../src/publication/services/thesaurus-terms.js';

const match = { sectionId: 12, sectionTipos: ['oh1'], tagId: 3 };

describe('indexation locators', () => {
  it('compare ids as numbers whether stored as strings or numbers, whatever the key order', () => {
    expect(locatorMatches({ type: 'dd96', tag_id: '3', section_id: '12', section_tipo: 'oh1' }, match)).toBe(
      true,
    );
    expect(
      locatorMatches({ section_tipo: 'oh1', section_id: 12, component_tipo: 'rsc36', tag_id: 3 }, match),
    ).toBe(true);
    expect(locatorMatches({ section_id: '012', tag_id: ' 3 ', section_tipo: 'oh1' }, match)).toBe(true);
  });

  it('refuse another record, tag, section_tipo or component', () => {
    expect(locatorMatches({ section_id: '112', tag_id: '3', section_tipo: 'oh1' }, match)).toBe(false);
    expect(locatorMatches({ section_id: '12', tag_id: '31', section_tipo: 'oh1' }, match)).toBe(false);
    expect(locatorMatches({ section_id: '12', tag_id: '3', section_tipo: 'rsc167' }, match)).toBe(false);
    expect(
      locatorMatches(
        { section_id: 12, tag_id: 3, component_tipo: 'rsc36' },
        { ...match, componentTipo: 'rsc99' },
      ),
    ).toBe(false);
    expect(locatorMatches({ section_id: 12 }, match)).toBe(false);
  });

  it('accept any tag and tipo when none is asked for', () => {
    expect(locatorMatches({ section_id: 12, section_tipo: 'x1' }, { sectionId: 12, sectionTipos: [] })).toBe(
      true,
    );
  });

  it('read JSON text or parsed cells, arrays or single locators, and survive junk', () => {
    const cell = JSON.stringify([
      { section_id: 1, tag_id: 1 },
      { section_id: '12', tag_id: '3', section_tipo: 'oh1' },
    ]);
    expect(indexationMatches(cell, match)).toBe(true);
    expect(indexationMatches(JSON.parse(cell), match)).toBe(true);
    expect(indexationMatches('{"section_id":"12","tag_id":3}', match)).toBe(true);
    // Mentions the numbers, but in no locator that matches: a LIKE on the text would say yes.
    expect(indexationMatches('[{"section_id":"3","tag_id":"12"}]', match)).toBe(false);
    for (const junk of [null, '', 'not json', '[1,2]', '{"section_id":', 42]) {
      expect(indexationMatches(junk, match)).toBe(false);
    }
  });
});
