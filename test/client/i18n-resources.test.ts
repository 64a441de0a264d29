/**
 * The interface languages are complete and the screens take their words from them: every key of
 * the English file exists in Spanish and Catalan (with the plural forms each language's rules
 * ask for), every `{{value}}` a sentence puts in is there in each translation, and no html``
 * template of the client holds visible English of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t } from '../../client/src/api/i18n.js';
import ca from '../../client/src/i18n/ca.js';
import en from '../../client/src/i18n/en.js';
import es from '../../client/src/i18n/es.js';

const LANGS: Record<string, Record<string, string>> = { es, ca };
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Keys by base name: a plural key stands for its base ("recordCount_one" -> "recordCount"). */
const bases = (table: Record<string, string>) =>
  new Set(Object.keys(table).map((k) => k.replace(PLURAL, '')));
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('interface languages', () => {
  for (const [lang, table] of Object.entries(LANGS)) {
    it(`${lang} has every key of English, and no key English lacks`, () => {
      const enBases = bases(en);
      const missing = [...enBases].filter((base) => {
        const plural = Object.keys(en).some((k) => k !== base && k.replace(PLURAL, '') === base);
        if (!plural) return table[base] === undefined;
        const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
        return needed.some((c) => table[`${base}_${c}`] === undefined);
      });
      expect(missing).toEqual([]);
      expect([...bases(table)].filter((b) => !enBases.has(b))).toEqual([]);
    });

    it(`${lang} puts in the same values as English`, () => {
      const wrong = Object.entries(table).filter(([key, text]) => {
        const source =
          en[key as keyof typeof en] ?? en[`${key.replace(PLURAL, '')}_other` as keyof typeof en];
        if (source === undefined) return false;
        // "The only record" may leave the count out of the singular.
        const want = placeholders(source).filter((p) => !(PLURAL.test(key) && p === 'count'));
        return want.some((p) => !placeholders(text).includes(p));
      });
      expect(wrong.map(([k]) => k)).toEqual([]);
    });
  }

  it('chooses plural forms by each language’s rules', () => {
    expect(t('recordCount', { n: 1 }, 'ca')).toBe('1 registre');
    expect(t('recordCount', { n: 2 }, 'ca')).toBe('2 registres');
    expect(t('recordCount', { n: 0 }, 'es')).toBe('0 registros');
    expect(t('recordCount', { n: 1 }, 'en')).toBe('1 record');
    expect(t('recordCount', { n: 1000000 }, 'ca')).toBe('1000000 registres');
    expect(t('addValueTo', { label: 'Títol' }, 'ca')).toBe('Afegeix un valor a Títol');
  });
});

/** The static parts of each html`` template: what a person would read if it were English. */
function templateTexts(source: string): string[] {
  const out: string[] = [];
  let at = source.indexOf('html`');
  while (at !== -1) {
    let i = at + 5;
    let depth = 0;
    let chunk = '';
    // Walk to the closing backtick, skipping ${...} (which may hold nested templates).
    while (i < source.length) {
      const c = source[i]!;
      if (depth === 0 && c === '`') break;
      if (depth === 0 && c === '$' && source[i + 1] === '{') {
        chunk += '\u0000';
        depth = 1;
        i += 2;
        continue;
      }
      if (depth > 0) {
        if (c === '{') depth++;
        else if (c === '}') depth--;
        else if (c === '`') {
          // A nested template inside ${}: skip to its end (its own html`` is scanned on its own).
          const end = skipTemplate(source, i + 1);
          i = end + 1;
          continue;
        }
      } else chunk += c;
      i++;
    }
    out.push(chunk);
    at = source.indexOf('html`', at + 5);
  }
  return out;
}

function skipTemplate(source: string, from: number): number {
  let i = from;
  let depth = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (depth === 0 && c === '`') return i;
    if (c === '$' && source[i + 1] === '{') {
      depth++;
      i += 2;
      continue;
    }
    if (depth > 0 && c === '}') depth--;
    else if (depth > 0 && c === '`') {
      i = skipTemplate(source, i + 1) + 1;
      continue;
    }
    i++;
  }
  return i;
}

/**
 * Words a person reads in a template's static text (expressions are NUL): text between tags and
 * the labelling attributes' own words.
 */
function visibleWords(template: string): string[] {
  const words: string[] = [];
  const attrs = /\b(aria-label|title|placeholder|alt|heading|confirm-label)="([^"]*)"/g;
  for (const m of template.matchAll(attrs)) words.push(...m[2]!.split('\u0000'));
  const text = template.replace(/<[^>]*>/g, '\u0000');
  words.push(...text.split('\u0000'));
  return words.map((w) => w.trim()).filter((w) => /[A-Za-z]{2,}/.test(w));
}

/** What may stay as written: the product's name. */
const ALLOWED = new Set(['Dédalo']);

function clientSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? clientSources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('client templates', () => {
  it('hold no visible English of their own: the words come from the language files', () => {
    const found: string[] = [];
    for (const file of clientSources('client/src')) {
      if (file.includes(`${join('client', 'src', 'i18n')}`)) continue;
      for (const part of templateTexts(readFileSync(file, 'utf8'))) {
        for (const w of visibleWords(part)) if (!ALLOWED.has(w)) found.push(`${file}: ${w}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('catches an English word in a template (the check itself works)', () => {
    const expr = (s: string) => `\${${s}}`;
    const sample = `html\`<p class="muted">${expr("t('a')")}</p><button aria-label="Close">${expr('x')}</button><b>Save</b>\``;
    expect(templateTexts(sample).flatMap(visibleWords)).toEqual(['Close', 'Save']);
  });
});
