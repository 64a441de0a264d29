/**
 * The browse pages' words: Spanish and Catalan have every English key (a missing one would show
 * English on a Spanish page), and the interface language is chosen from `ui=`, then
 * Accept-Language by its weights, then English.
 */
import { describe, expect, it } from 'vitest';
import ca from '../../src/publication/browse/i18n/ca.js';
import en from '../../src/publication/browse/i18n/en.js';
import es from '../../src/publication/browse/i18n/es.js';
import { chooseUiLang, translator } from '../../src/publication/browse/i18n.js';

describe('browse page words', () => {
  it('has every English key in Spanish and Catalan', () => {
    const keys = Object.keys(en).filter((k) => !k.startsWith('uiName:'));
    for (const [name, file] of [
      ['es', es],
      ['ca', ca],
    ] as const) {
      expect(
        keys.filter((k) => !(k in file)),
        name,
      ).toEqual([]);
    }
  });

  it('chooses the language from ui=, then Accept-Language by weight, then English', () => {
    expect(chooseUiLang('ca', 'es-ES,es;q=0.9')).toEqual({ lang: 'ca', explicit: true });
    expect(chooseUiLang(undefined, 'fr-FR,fr;q=0.9,ca;q=0.5,es;q=0.7')).toEqual({
      lang: 'es',
      explicit: false,
    });
    expect(chooseUiLang('xx', 'ca-ES')).toEqual({ lang: 'ca', explicit: false });
    expect(chooseUiLang(undefined, 'de-DE')).toEqual({ lang: 'en', explicit: false });
    expect(chooseUiLang(undefined, undefined)).toEqual({ lang: 'en', explicit: false });
  });

  it('puts plurals and values into the sentence in each language', () => {
    expect(translator('en')('recordsCount', { count: 1, formatted: '1' })).toBe('1 record');
    expect(translator('es')('recordsCount', { count: 1200, formatted: '1.200' })).toBe('1.200 registros');
    expect(translator('ca')('fallbackMark', { lang: 'castellà' })).toBe('en castellà');
  });
});
