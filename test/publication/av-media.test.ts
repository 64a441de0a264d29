import { describe, expect, it } from 'vitest';
import { mediaOf, mediaUrl, withTimeWindow } from '../../src/publication/services/av-media.js';
import { mergeSpeakers } from '../../src/publication/services/av-speakers.js';
import { relationIds } from '../../src/publication/services/relation-cells.js';

describe('audiovisual media helpers', () => {
  it('read relation ids from every published cell shape', () => {
    expect(relationIds('[1,"2"]')).toEqual([1, 2]);
    expect(relationIds('[{"section_tipo":"rsc35","section_id":"7"}]')).toEqual([7]);
    expect(relationIds([3])).toEqual([3]);
    expect(relationIds('5')).toEqual([5]);
    for (const junk of [null, '', 'x', '[0,-1,"a",1.5]', '{}']) expect(relationIds(junk)).toEqual([]);
  });

  it('keep absolute and rooted URLs, and put relative paths under MEDIA_BASE_URL', () => {
    expect(mediaUrl('https://cdn.example/a.mp4', 'https://m.test')).toBe('https://cdn.example/a.mp4');
    expect(mediaUrl('HTTP://cdn.example/a.mp4', '')).toBe('HTTP://cdn.example/a.mp4');
    expect(mediaUrl('/av/a.mp4', 'https://m.test')).toBe('/av/a.mp4');
    expect(mediaUrl('av/a.mp4', 'https://m.test')).toBe('https://m.test/av/a.mp4');
    expect(mediaUrl('av/a.mp4', '')).toBe('/av/a.mp4');
    expect(mediaUrl('  ', 'https://m.test')).toBeNull();
    expect(mediaUrl(undefined, 'https://m.test')).toBeNull();
  });

  it('add vbegin/vend to the video URL, after an existing query and before a fragment', () => {
    expect(withTimeWindow('/a.mp4', 1.5, 20)).toBe('/a.mp4?vbegin=1.5&vend=20');
    expect(withTimeWindow('/a.mp4?x=1', 0, 0.1234)).toBe('/a.mp4?x=1&vbegin=0&vend=0.123');
    expect(withTimeWindow('/a.mp4#t', 2, 3)).toBe('/a.mp4?vbegin=2&vend=3#t');
  });

  it('give null URLs when there is no media asset', () => {
    expect(mediaOf(undefined, 1, 2, '/m')).toEqual({ video_url: null, image_url: null, tc_in: 1, tc_out: 2 });
  });
});

describe('speakers', () => {
  const informants = [{ id: 27, name: 'Luis García' }];
  const tables = new Map([
    ['rsc197', 'informant'],
    ['rsc194', 'people'],
  ]);

  it('list informants, then person tags that are not one of them, once each by name', () => {
    const passage = [
      { id: 27, name: 'LG', data: { section_tipo: 'rsc197', section_id: '27' } },
      { id: 28, name: 'Ana Puig', data: { section_tipo: 'rsc194', section_id: 27 } },
      { id: 29, name: 'Ana Puig' },
      { id: 30, name: 'Entrevistador' },
    ];
    expect(mergeSpeakers(informants, passage, tables, 'informant')).toEqual([
      { name: 'Luis García', role: 'informant' },
      { name: 'Ana Puig', role: 'speaker' },
      { name: 'Entrevistador', role: 'speaker' },
    ]);
  });

  it('treat a locator without a known tipo as pointing at the speaker table', () => {
    const passage = [{ id: 1, name: 'LG', data: { section_id: 27 } }];
    expect(mergeSpeakers(informants, passage, new Map(), 'informant')).toEqual([
      { name: 'Luis García', role: 'informant' },
    ]);
  });
});
