/**
 * WebVTT cues keep only bold and italics: every other tag is dropped, whatever its name, even
 * one that names a property every JavaScript object has.
 */
import { describe, expect, it } from 'vitest';
import { buildWebVtt } from '../../src/publication/v1/subtitles.js';

describe('buildWebVtt', () => {
  it('keeps <strong> as <b> and <em> as <i>, and drops any other tag', () => {
    const vtt = buildWebVtt(
      '[TC_00:00:01.000_TC] <strong>Where?</strong> In <em>Girona</em>, <span>by</span> the <constructor>river</constructor> <toString>bank</toString>. [TC_00:00:05.000_TC]',
      {},
    );
    expect(vtt).toContain('<b>Where?</b>\nIn <i>Girona</i>, by the river bank.');
    expect(vtt).not.toMatch(/function|native code|constructor|toString|span/);
  });
});
