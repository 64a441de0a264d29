/**
 * Tiny media files written byte by byte, for the duration read on upload: an MP4 whose movie
 * header (`mvhd`) says its length (fast start or not, version 0 or 1), a WebM whose Segment Info
 * says it, a WAV of silence (PCM, so Chromium really plays it: the player tests seek in it), and
 * MP3s: constant bit rate (frames of one size) or variable with a Xing header counting frames.
 */

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

function box(type: string, ...body: Buffer[]): Buffer {
  const content = Buffer.concat(body);
  return Buffer.concat([u32(8 + content.length), Buffer.from(type, 'latin1'), content]);
}

/** An MP4 of `seconds` (timescale 1000); `moovLast` puts the movie box after the media data. */
export function tinyMp4(seconds: number, options: { moovLast?: boolean; version1?: boolean } = {}): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), u32(512), Buffer.from('isomiso2mp41', 'latin1'));
  const duration = Math.round(seconds * 1000);
  const mvhdBody = options.version1
    ? Buffer.concat([
        Buffer.from([1, 0, 0, 0]),
        Buffer.alloc(16), // creation, modification (64-bit)
        u32(1000),
        (() => {
          const b = Buffer.alloc(8);
          b.writeBigUInt64BE(BigInt(duration));
          return b;
        })(),
        Buffer.alloc(80),
      ])
    : Buffer.concat([Buffer.from([0, 0, 0, 0]), Buffer.alloc(8), u32(1000), u32(duration), Buffer.alloc(80)]);
  const moov = box('moov', box('mvhd', mvhdBody));
  const mdat = box('mdat', Buffer.alloc(64));
  return options.moovLast ? Buffer.concat([ftyp, mdat, moov]) : Buffer.concat([ftyp, moov, mdat]);
}

/** An EBML element: ID bytes as written in the specification, then a 1..8-byte size. */
function ebml(id: number[], body: Buffer, unknownSize = false): Buffer {
  const size = unknownSize
    ? Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
    : (() => {
        const b = Buffer.alloc(8);
        b.writeBigUInt64BE(BigInt(body.length));
        b[0] = 0x01;
        return b;
      })();
  return Buffer.concat([Buffer.from(id), size, body]);
}

/** A WebM of `seconds`: EBML header, a Segment of unknown size, a Void, then Info. */
export function tinyWebm(seconds: number): Buffer {
  const header = ebml([0x1a, 0x45, 0xdf, 0xa3], ebml([0x42, 0x82], Buffer.from('webm', 'latin1')));
  const scale = ebml([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])); // 1 000 000 ns
  const d = Buffer.alloc(8);
  d.writeDoubleBE(seconds * 1000);
  const info = ebml([0x15, 0x49, 0xa9, 0x66], Buffer.concat([scale, ebml([0x44, 0x89], d)]));
  const voidEl = ebml([0xec], Buffer.alloc(10));
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], Buffer.concat([voidEl, info]), true)]);
}

/** A WAV of `seconds` of silence: 8-bit mono PCM at `rate` Hz. */
export function tinyWav(seconds: number, rate = 8000): Buffer {
  const bytes = Math.round(seconds * rate);
  const le = (n: number, w: 2 | 4) => {
    const b = Buffer.alloc(w);
    if (w === 2) b.writeUInt16LE(n);
    else b.writeUInt32LE(n);
    return b;
  };
  const fmt = Buffer.concat([
    Buffer.from('fmt ', 'latin1'),
    le(16, 4),
    le(1, 2), // PCM
    le(1, 2), // mono
    le(rate, 4),
    le(rate, 4), // byte rate
    le(1, 2), // block align
    le(8, 2), // bits
  ]);
  const data = Buffer.concat([Buffer.from('data', 'latin1'), le(bytes, 4), Buffer.alloc(bytes, 0x80)]);
  return Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    le(4 + fmt.length + data.length, 4),
    Buffer.from('WAVE', 'latin1'),
    fmt,
    data,
  ]);
}

/**
 * An MP3 (MPEG-1 Layer III, 44.1 kHz, stereo) of `frames` frames, after an ID3v2 tag: 128 kbit/s
 * constant (417-byte frames), or with `xing` a first frame carrying the Xing frame count.
 */
export function tinyMp3(frames: number, options: { xing?: boolean } = {}): Buffer {
  const id3 = Buffer.concat([
    Buffer.from('ID3', 'latin1'),
    Buffer.from([3, 0, 0, 0, 0, 0, 20]),
    Buffer.alloc(20),
  ]);
  // 0xFFFB: MPEG-1 Layer III, no CRC; 0x90: 128 kbit/s, 44.1 kHz, no padding; 0x00: stereo.
  const header = Buffer.from([0xff, 0xfb, 0x90, 0x00]);
  const frameBytes = Math.floor((144 * 128000) / 44100);
  const frame = () => Buffer.concat([header, Buffer.alloc(frameBytes - 4)]);
  if (!options.xing) return Buffer.concat([id3, ...Array.from({ length: frames }, frame)]);
  const first = frame();
  first.write('Xing', 4 + 32, 'latin1');
  first.writeUInt32BE(1, 4 + 32 + 4); // flags: frame count present
  first.writeUInt32BE(frames, 4 + 32 + 8);
  // A short file whose size says little: the count decides.
  return Buffer.concat([id3, first, frame()]);
}
