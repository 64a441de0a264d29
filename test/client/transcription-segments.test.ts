import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setUiLang } from '../../client/src/api/i18n.js';
import { messageFor } from '../../client/src/api/messages.js';
import { parseDateInput } from '../../client/src/api/read-shapes.js';
import { pageTag, segmentsOf, timecodeTag } from '../../client/src/text/transcription-segments.js';

const join = (text: string) =>
  segmentsOf(text)
    .map((s) => (s.kind === 'text' ? s.text : s.raw))
    .join('');

describe('transcription segments (the editor shows tags as chips)', () => {
  it('splits text and tags, labelling timecodes, index marks and pages', () => {
    const text =
      'Hola [TC_00:01:02.500_TC] que [index-n-3-Molino-data::data]molino[/index-n-3-Molino-data::data] [page-n-2]';
    const segments = segmentsOf(text);
    expect(segments.filter((s) => s.kind === 'tag').map((s) => (s.kind === 'tag' ? s.label : ''))).toEqual([
      'TC 00:01:02.500',
      'index 3 in',
      'index 3 out',
      'page 2',
    ]);
    expect(join(text)).toBe(text);
  });

  it('labels the chips in the interface language', () => {
    const text =
      '[TC_00:01:02.500_TC][index-n-3-M-data::data]m[/index-n-3-M-data::data][page-n-2][person-n-7-Ana_G-data::data]';
    const labels = () => segmentsOf(text).flatMap((s) => (s.kind === 'tag' ? [s.label] : []));
    try {
      setUiLang('es');
      expect(labels()).toEqual([
        'tiempo 00:01:02.500',
        'índice 3 inicio',
        'índice 3 fin',
        'página 2',
        'persona Ana G',
      ]);
      setUiLang('ca');
      expect(labels()).toEqual([
        'temps 00:01:02.500',
        'índex 3 inici',
        'índex 3 final',
        'pàgina 2',
        'persona Ana G',
      ]);
    } finally {
      setUiLang('en');
    }
    expect(labels()).toEqual(['TC 00:01:02.500', 'index 3 in', 'index 3 out', 'page 2', 'person Ana G']);
  });

  it('keeps tag look-alikes as text, and HTML markup as chips of its own', () => {
    const text = '<p>a [foo-1] b [TC_bad_TC] a<b</p>';
    expect(segmentsOf(text).map((s) => (s.kind === 'tag' ? `chip:${s.label}` : s.text))).toEqual([
      'chip:p',
      'a [foo-1] b [TC_bad_TC] a<b',
      'chip:/p',
    ]);
    expect(join(text)).toBe(text);
  });

  it('gives back exactly the stored text for any input (nothing lost or changed)', () => {
    const pieces = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '[TC_00:00:01.000_TC]',
        '[index-n-1-a-data::data]',
        '[/index-n-1-a-data::data]',
        '[page-n-9]',
        '[',
        ']',
        '<br>',
      ),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(join(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('writes timecodes typed as H:MM:SS, MM:SS or seconds, and refuses others', () => {
    expect(timecodeTag('1:30')).toBe('[TC_00:01:30.000_TC]');
    expect(timecodeTag('01:02:03.25')).toBe('[TC_01:02:03.250_TC]');
    expect(timecodeTag('90')).toBe('[TC_00:01:30.000_TC]');
    expect(timecodeTag('soon')).toBeUndefined();
    expect(segmentsOf(timecodeTag('1:30')!)[0]).toMatchObject({ kind: 'tag', label: 'TC 00:01:30' });
    expect(segmentsOf(pageTag(4))[0]).toMatchObject({ kind: 'tag', label: 'page 4' });
  });
});

describe('client messages and inputs', () => {
  it('says how long a throttled login waits, in words, and never shows a raw 500', () => {
    expect(messageFor('rate.limited', 'Too many failed logins', 429, 900)).toBe(
      'Too many failed logins: logging in is paused for this account or address. Try again in 15 minutes.',
    );
    expect(messageFor('internal.unexpected', 'TypeError: x is undefined at foo.js:1', 500)).not.toContain(
      'TypeError',
    );
    expect(messageFor('validation.invalid_value', 'oh29: the date is not valid', 400)).toBe(
      'oh29: the date is not valid',
    );
  });

  it('reads dates of year, month or day precision', () => {
    expect(parseDateInput('1990')).toEqual({ year: 1990 });
    expect(parseDateInput('1990-05')).toEqual({ year: 1990, month: 5 });
    expect(parseDateInput('1990/05/17')).toEqual({ year: 1990, month: 5, day: 17 });
    expect(parseDateInput('1990-13')).toBeUndefined();
    expect(parseDateInput('May 1990')).toBeUndefined();
  });
});
