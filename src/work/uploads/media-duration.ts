/**
 * The running time of an uploaded audio or video file, read from its container header (no
 * ffprobe, no native code): MP4/MOV/M4A (the movie header `mvhd`: duration / timescale), WebM and
 * Matroska (Segment > Info: Duration x TimestampScale ns), WAV (data size / byte rate) and MP3
 * (the Xing/Info or VBRI frame count of a variable bit rate file, else size / bit rate).
 * Anything else, or a file whose header cannot be read, answers undefined: the duration field is
 * then left as it is (typed by hand). Reads only the few header bytes it needs, so a large file
 * costs a handful of small reads.
 */
import { open } from 'node:fs/promises';

type Reader = (at: number, length: number) => Promise<Buffer>;

/** Top-level MP4 boxes walked before giving up (a real file has a handful). */
const MAX_BOXES = 64;
/** Matroska elements looked at before giving up. */
const MAX_ELEMENTS = 256;

/** Seconds of media in the file at `path`, or undefined when its format or header is not known. */
export async function readMediaDuration(path: string): Promise<number | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const read: Reader = async (at, length) => {
      const n = Math.max(0, Math.min(length, size - at));
      const buffer = Buffer.alloc(n);
      if (n > 0) await file.read(buffer, 0, n, at);
      return buffer;
    };
    const head = await read(0, 12);
    if (head.length < 12) return undefined;
    let seconds: number | undefined;
    if (['ftyp', 'moov', 'mdat', 'wide', 'free'].includes(head.toString('latin1', 4, 8)))
      seconds = await mp4Duration(read, size);
    else if (head.readUInt32BE(0) === 0x1a45dfa3) seconds = await matroskaDuration(read, size);
    else if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WAVE')
      seconds = await wavDuration(read, size);
    else if (head.toString('latin1', 0, 3) === 'ID3' || isMp3Frame(head, 0))
      seconds = await mp3Duration(read, size);
    return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

/** Box header at `at`: its size (to the end of `end` when 0) and type. */
async function box(read: Reader, at: number, end: number) {
  const h = await read(at, 16);
  if (h.length < 8) return undefined;
  let size = h.readUInt32BE(0);
  const type = h.toString('latin1', 4, 8);
  let header = 8;
  if (size === 1) {
    if (h.length < 16) return undefined;
    size = Number(h.readBigUInt64BE(8));
    header = 16;
  } else if (size === 0) size = end - at;
  if (size < header) return undefined;
  return { size, type, header };
}

async function mp4Duration(read: Reader, size: number): Promise<number | undefined> {
  // moov may come first (fast start) or after the media data: walk the top-level boxes.
  let at = 0;
  for (let i = 0; i < MAX_BOXES && at < size; i++) {
    const top = await box(read, at, size);
    if (!top) return undefined;
    if (top.type === 'moov') {
      const end = at + top.size;
      let inner = at + top.header;
      for (let j = 0; j < MAX_BOXES && inner < end; j++) {
        const child = await box(read, inner, end);
        if (!child) return undefined;
        if (child.type === 'mvhd') {
          const body = await read(inner + child.header, 32);
          const version = body[0];
          if (version === 1) {
            if (body.length < 32) return undefined;
            const timescale = body.readUInt32BE(20);
            const duration = Number(body.readBigUInt64BE(24));
            return timescale > 0 ? duration / timescale : undefined;
          }
          if (body.length < 20) return undefined;
          const timescale = body.readUInt32BE(12);
          const duration = body.readUInt32BE(16);
          // All ones: the duration is not known.
          return timescale > 0 && duration !== 0xffffffff ? duration / timescale : undefined;
        }
        inner += child.size;
      }
      return undefined;
    }
    at += top.size;
  }
  return undefined;
}

/** An EBML variable-length number at `at` in `b`: its value (length marker stripped), length, and whether it is all ones (unknown). */
function vint(b: Buffer, at: number): { value: number; length: number; unknown: boolean } | undefined {
  const first = b[at];
  if (first === undefined || first === 0) return undefined;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || at + length > b.length) return undefined;
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = b[at + i]!;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value, length, unknown: allOnes };
}

/** An element ID (the marker kept, as the specification writes IDs) at `at`. */
function elementId(b: Buffer, at: number): { id: number; length: number } | undefined {
  const v = vint(b, at);
  if (!v) return undefined;
  let id = 0;
  for (let i = 0; i < v.length; i++) id = id * 256 + b[at + i]!;
  return { id, length: v.length };
}

const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMESTAMP_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

async function matroskaDuration(read: Reader, size: number): Promise<number | undefined> {
  // Walk: EBML header, then Segment's children until Info; Info's Duration and TimestampScale.
  let at = 0;
  let end = size;
  for (let i = 0; i < MAX_ELEMENTS && at < end; i++) {
    const h = await read(at, 12);
    const id = elementId(h, 0);
    if (!id) return undefined;
    const len = vint(h, id.length);
    if (!len) return undefined;
    const dataAt = at + id.length + len.length;
    if (id.id === SEGMENT) {
      // Its children follow; an unknown size runs to the end of the file.
      end = len.unknown ? size : Math.min(size, dataAt + len.value);
      at = dataAt;
      continue;
    }
    if (id.id === INFO) {
      if (len.unknown) return undefined;
      const info = await read(dataAt, Math.min(len.value, 4096));
      let scale = 1_000_000;
      let duration: number | undefined;
      let p = 0;
      while (p < info.length) {
        const cid = elementId(info, p);
        if (!cid) break;
        const clen = vint(info, p + cid.length);
        if (!clen || clen.unknown) break;
        const v = p + cid.length + clen.length;
        if (v + clen.value > info.length) break;
        if (cid.id === TIMESTAMP_SCALE) scale = info.readUIntBE(v, Math.min(clen.value, 6));
        if (cid.id === DURATION)
          duration =
            clen.value === 4 ? info.readFloatBE(v) : clen.value === 8 ? info.readDoubleBE(v) : undefined;
        p = v + clen.value;
      }
      return duration === undefined ? undefined : (duration * scale) / 1e9;
    }
    if (len.unknown) return undefined;
    // The EBML header, SeekHead, Void, ...: skipped whole.
    at = dataAt + len.value;
  }
  return undefined;
}

async function wavDuration(read: Reader, size: number): Promise<number | undefined> {
  let at = 12;
  let byteRate: number | undefined;
  for (let i = 0; i < MAX_BOXES && at + 8 <= size; i++) {
    const h = await read(at, 16);
    const id = h.toString('latin1', 0, 4);
    const length = h.readUInt32LE(4);
    if (id === 'fmt ') {
      const fmt = await read(at + 8, 16);
      if (fmt.length < 12) return undefined;
      byteRate = fmt.readUInt32LE(8);
    }
    if (id === 'data') {
      // A streamed file may say 0 or all ones: the rest of the file is the data.
      const bytes = length === 0 || length === 0xffffffff ? size - at - 8 : Math.min(length, size - at - 8);
      return byteRate ? bytes / byteRate : undefined;
    }
    at += 8 + length + (length % 2);
  }
  return undefined;
}

const MP3_BITRATES = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES = [44100, 48000, 32000];

/** An MPEG audio Layer III frame header at `at` (sync, a known version, bit rate and rate). */
function isMp3Frame(b: Buffer, at: number): boolean {
  if (at + 4 > b.length || b[at] !== 0xff) return false;
  const b1 = b[at + 1]!;
  const b2 = b[at + 2]!;
  return (
    (b1 & 0xe0) === 0xe0 &&
    ((b1 >> 3) & 3) !== 1 &&
    ((b1 >> 1) & 3) === 1 &&
    b2 >> 4 !== 0 &&
    b2 >> 4 !== 15 &&
    ((b2 >> 2) & 3) !== 3
  );
}

async function mp3Duration(read: Reader, size: number): Promise<number | undefined> {
  let start = 0;
  const id3 = await read(0, 10);
  if (id3.toString('latin1', 0, 3) === 'ID3' && id3.length === 10) {
    // The tag's size is "syncsafe": 7 bits a byte; a footer adds 10 bytes.
    const tagSize =
      ((id3[6]! & 0x7f) << 21) | ((id3[7]! & 0x7f) << 14) | ((id3[8]! & 0x7f) << 7) | (id3[9]! & 0x7f);
    start = 10 + tagSize + (id3[5]! & 0x10 ? 10 : 0);
  }
  // The first frame: at the start of the audio, or within a little padding after the tag.
  const window = await read(start, 4096);
  let at = 0;
  while (at < window.length - 4 && !isMp3Frame(window, at)) at++;
  if (!isMp3Frame(window, at)) return undefined;
  const frameAt = start + at;
  const b1 = window[at + 1]!;
  const b2 = window[at + 2]!;
  const b3 = window[at + 3]!;
  const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const mpeg1 = version === 3;
  const rate = MP3_RATES[(b2 >> 2) & 3]! / (mpeg1 ? 1 : version === 2 ? 2 : 4);
  const bitrate = (mpeg1 ? MP3_BITRATES.v1 : MP3_BITRATES.v2)[b2 >> 4]! * 1000;
  const samplesPerFrame = mpeg1 ? 1152 : 576;
  const mono = b3 >> 6 === 3;
  // A variable bit rate file says its frame count: Xing/Info after the side information, or VBRI.
  const frame = await read(frameAt, 64);
  const sideInfo = mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  const xingAt = 4 + sideInfo;
  const tag = frame.toString('latin1', xingAt, xingAt + 4);
  if ((tag === 'Xing' || tag === 'Info') && frame.length >= xingAt + 12 && frame.readUInt32BE(xingAt + 4) & 1)
    return (frame.readUInt32BE(xingAt + 8) * samplesPerFrame) / rate;
  if (frame.toString('latin1', 36, 40) === 'VBRI' && frame.length >= 36 + 18)
    return (frame.readUInt32BE(36 + 14) * samplesPerFrame) / rate;
  // Constant bit rate: the audio's size over the bit rate.
  return bitrate > 0 ? ((size - frameAt) * 8) / bitrate : undefined;
}
