import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secondsOfTimeCode } from '../../src/common/text/time-code.js';
import { timecodeOf } from '../../src/work/records/media-duration-field.js';
import { readMediaDuration } from '../../src/work/uploads/media-duration.js';
import { tinyMp3, tinyMp4, tinyWav, tinyWebm } from '../helpers/media-files.js';

const dir = mkdtempSync(join(tmpdir(), 'media-duration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileOf = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

describe('the running time of an uploaded file, from its header', () => {
  it('reads MP4 (movie box first or last, mvhd version 0 or 1), WebM and WAV', async () => {
    expect(await readMediaDuration(fileOf('a.mp4', tinyMp4(12)))).toBe(12);
    expect(await readMediaDuration(fileOf('b.mp4', tinyMp4(754.5, { moovLast: true })))).toBe(754.5);
    expect(await readMediaDuration(fileOf('c.m4a', tinyMp4(3600.25, { version1: true })))).toBe(3600.25);
    expect(await readMediaDuration(fileOf('d.webm', tinyWebm(12.5)))).toBe(12.5);
    expect(await readMediaDuration(fileOf('e.wav', tinyWav(2.5, 100)))).toBe(2.5);
  });

  it('reads MP3: the Xing frame count of a variable bit rate file, else size over bit rate', async () => {
    // 1000 frames of 1152 samples at 44.1 kHz.
    expect(await readMediaDuration(fileOf('vbr.mp3', tinyMp3(1000, { xing: true })))).toBeCloseTo(26.122, 3);
    // 38 frames of 417 bytes at 128 kbit/s.
    expect(await readMediaDuration(fileOf('cbr.mp3', tinyMp3(38)))).toBeCloseTo((38 * 417 * 8) / 128000, 6);
  });

  it('answers undefined for other formats, truncated and empty files', async () => {
    expect(
      await readMediaDuration(fileOf('x.mp3', Buffer.from('ID3\u0003\u0000 not a container'))),
    ).toBeUndefined();
    expect(await readMediaDuration(fileOf('y.mp4', tinyMp4(12).subarray(0, 40)))).toBeUndefined();
    expect(await readMediaDuration(fileOf('z.webm', tinyWebm(12).subarray(0, 30)))).toBeUndefined();
    expect(await readMediaDuration(fileOf('empty', Buffer.alloc(0)))).toBeUndefined();
  });

  it('writes and reads the time code a duration field holds', () => {
    expect(timecodeOf(12)).toBe('00:00:12.000');
    expect(timecodeOf(3723.5)).toBe('01:02:03.500');
    expect(secondsOfTimeCode('00:00:12')).toBe(12);
    expect(secondsOfTimeCode('01:02:03.5')).toBe(3723.5);
    expect(secondsOfTimeCode('1:30')).toBe(90);
    expect(secondsOfTimeCode('00:00:12,250')).toBe(12.25);
    expect(secondsOfTimeCode('12')).toBeUndefined();
    expect(secondsOfTimeCode('soon')).toBeUndefined();
  });
});
