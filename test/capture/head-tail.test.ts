import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadTailKeeper, omissionMarker } from '../../src/capture/head-tail.js';

const KiB = 1024;

function pushInChunks(keeper: HeadTailKeeper, data: Buffer, size: number): void {
  for (let i = 0; i < data.length; i += size) keeper.push(data.subarray(i, i + size));
}

function numberedLines(totalBytes: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  for (let i = 1; length < totalBytes; i += 1) {
    const line = `line ${String(i).padStart(6, '0')}: warning: something happened here\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join(''));
}

// A truncated text must be a prefix of the stream, the marker, and a suffix of the stream, and the
// bytes it stands for plus omittedBytes must be the whole stream.
function expectHonestJoin(data: Buffer, text: string, omittedBytes: number): void {
  const marker = omissionMarker(omittedBytes);
  const at = text.indexOf(marker);
  expect(at).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, at);
  const after = text.slice(at + marker.length);
  const tailLength = Buffer.byteLength(after);
  expect(data.subarray(data.length - tailLength).toString()).toBe(after);
  const headLength = data.length - omittedBytes - tailLength;
  expect(headLength).toBeGreaterThanOrEqual(0);
  const head = data.subarray(0, headLength).toString();
  expect(before).toBe(head === '' || head.endsWith('\n') ? head : `${head}\n`);
}

describe('HeadTailKeeper', () => {
  it('counts seed 003 exactly: 1 MiB of stderr in 64 KiB chunks, kept in 32 KiB', () => {
    const keeper = new HeadTailKeeper(32 * KiB);
    const chunk = Buffer.alloc(64 * KiB, 'x');
    for (let i = 0; i < 16; i += 1) keeper.push(chunk);
    const kept = keeper.finish();
    expect(kept.bytes).toBe(1_048_576);
    expect(kept.truncated).toBe(true);
    expect(kept.binary).toBe(false);
    expect(kept.omittedBytes).toBe(1_048_576 - 32 * KiB);
    expect(kept.text).toContain('[... safe-run: 1,015,808 bytes omitted ...]');
    expect(kept.text!.replace(/[^x]/g, '').length).toBe(32 * KiB);
    expect(keeper.retainedBytes).toBeLessThanOrEqual(32 * KiB + 1);
  });

  it('keeps whole lines around the cut and accounts for every byte', () => {
    const data = numberedLines(1_048_576);
    const keeper = new HeadTailKeeper(32 * KiB);
    pushInChunks(keeper, data, 64 * KiB);
    const kept = keeper.finish();
    expect(kept.bytes).toBe(data.length);
    const marker = omissionMarker(kept.omittedBytes);
    const [head, tail] = kept.text!.split(marker) as [string, string];
    expect(head.endsWith('\n')).toBe(true);
    const original = new Set(data.toString().split('\n'));
    for (const line of `${head}${tail}`.split('\n').filter(Boolean)) expect(original.has(line)).toBe(true);
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBe(kept.bytes - kept.omittedBytes);
    expect(keeper.retainedBytes).toBeLessThanOrEqual(32 * KiB + 1);
  });

  it('keeps both the first and the last line of a 200 KB stream', () => {
    const data = numberedLines(200_000);
    const lines = data.toString().trimEnd().split('\n');
    const keeper = new HeadTailKeeper(32 * KiB);
    pushInChunks(keeper, data, 4096);
    const kept = keeper.finish();
    expect(kept.truncated).toBe(true);
    expect(kept.text!.startsWith(`${lines[0]}\n`)).toBe(true);
    expect(kept.text!.endsWith(`${lines.at(-1)}\n`)).toBe(true);
  });

  it('returns the whole stream unchanged when it fits, up to exactly the cap', () => {
    const data = Buffer.from(`${'a'.repeat(99)}\n`);
    const keeper = new HeadTailKeeper(100);
    pushInChunks(keeper, data, 7);
    expect(keeper.finish()).toEqual({
      bytes: 100,
      truncated: false,
      omittedBytes: 0,
      text: data.toString(),
      binary: false,
    });
  });

  it('says one byte was omitted when the stream is one byte over the cap', () => {
    const keeper = new HeadTailKeeper(100);
    keeper.push(Buffer.from('a'.repeat(101)));
    const kept = keeper.finish();
    expect(kept).toMatchObject({ bytes: 101, truncated: true, omittedBytes: 1 });
    expect(kept.text).toBe(`${'a'.repeat(50)}\n[... safe-run: 1 bytes omitted ...]\n${'a'.repeat(50)}`);
  });

  it('reports an empty stream as empty text', () => {
    expect(new HeadTailKeeper(10).finish()).toEqual({
      bytes: 0,
      truncated: false,
      omittedBytes: 0,
      text: '',
      binary: false,
    });
  });

  it('costs little memory for a short stream even with a large cap', () => {
    const keeper = new HeadTailKeeper(1024 * 1024 * 1024);
    keeper.push(Buffer.from('short\n'));
    expect(keeper.retainedBytes).toBeLessThanOrEqual(64 * KiB);
    expect(keeper.finish().text).toBe('short\n');
  });

  it('keeps nothing but still counts with a cap of 0', () => {
    const keeper = new HeadTailKeeper(0);
    keeper.push(Buffer.from('hello\n'));
    expect(keeper.finish()).toEqual({
      bytes: 6,
      truncated: true,
      omittedBytes: 6,
      text: null,
      binary: false,
    });
    expect(keeper.retainedBytes).toBe(0);
  });

  it('counts past 2^32 bytes exactly', () => {
    const keeper = new HeadTailKeeper(1024);
    const chunk = Buffer.alloc(1024 * KiB, 'y');
    for (let i = 0; i < 4097; i += 1) keeper.push(chunk);
    const kept = keeper.finish();
    expect(kept.bytes).toBe(4097 * 1024 * KiB);
    expect(kept.bytes).toBeGreaterThan(2 ** 32);
    expect(kept.omittedBytes).toBe(kept.bytes - 1024);
  });

  it('joins a multibyte character split across two chunks', () => {
    const euro = Buffer.from('€');
    const keeper = new HeadTailKeeper(100);
    keeper.push(Buffer.concat([Buffer.from('price: '), euro.subarray(0, 1)]));
    keeper.push(Buffer.concat([euro.subarray(1), Buffer.from('5\n')]));
    expect(keeper.finish()).toMatchObject({ text: 'price: €5\n', binary: false, bytes: 12 });
  });

  it('never splits a multibyte character at the cut', () => {
    const data = Buffer.from('€'.repeat(10_000));
    const keeper = new HeadTailKeeper(1001);
    pushInChunks(keeper, data, 64);
    const kept = keeper.finish();
    expect(kept.binary).toBe(false);
    expect(kept.text).not.toContain('\uFFFD');
    expect((kept.bytes - kept.omittedBytes) % 3).toBe(0);
    expectHonestJoin(data, kept.text!, kept.omittedBytes);
  });

  it('reports NUL bytes as binary, without text', () => {
    const keeper = new HeadTailKeeper(1024);
    keeper.push(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]));
    expect(keeper.finish()).toEqual({
      bytes: 8,
      truncated: false,
      omittedBytes: 0,
      text: null,
      binary: true,
    });
  });

  it('shows a byte that is not UTF-8 escaped, also when truncated; data with a NUL is binary', () => {
    const keeper = new HeadTailKeeper(64);
    const data = Buffer.alloc(10_000, 0x41);
    data[9_990] = 0xff;
    pushInChunks(keeper, data, 1000);
    const kept = keeper.finish();
    expect(kept).toMatchObject({ bytes: 10_000, truncated: true, binary: false, escapedBytes: 1 });
    expect(kept.text).toMatch(/\\xFFAAAAAAAAA$/);
    const nul = new HeadTailKeeper(64);
    data[9_990] = 0;
    pushInChunks(nul, data, 1000);
    expect(nul.finish()).toMatchObject({ bytes: 10_000, truncated: true, text: null, binary: true });
  });

  it('keeps a character cut short by the end of the stream as text, its bytes escaped', () => {
    const keeper = new HeadTailKeeper(100);
    keeper.push(Buffer.concat([Buffer.from('killed mid-write '), Buffer.from('€').subarray(0, 2)]));
    expect(keeper.finish()).toMatchObject({
      binary: false,
      text: 'killed mid-write \\xE2\\x82',
      escapedBytes: 2,
    });
  });

  it('masks secrets in the kept text while counting the raw bytes', () => {
    const secret = 'hunter2-very-secret';
    const data = Buffer.from(`token=${secret}\n${'noise\n'.repeat(10_000)}failed with ${secret}\n`);
    const keeper = new HeadTailKeeper(4 * KiB, [secret]);
    pushInChunks(keeper, data, 1000);
    const kept = keeper.finish();
    expect(kept.bytes).toBe(data.length);
    expect(kept.text).not.toContain('hunter2');
    expect(kept.text).toContain('token=***\n');
    expect(kept.text).toContain('failed with ***\n');
  });

  it('shows no piece of a secret that the cut falls inside', () => {
    const secret = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    // No newlines, so the cuts fall exactly at 50 bytes from each end, inside the secret.
    const data = Buffer.from(`${'.'.repeat(40)}${secret}${'.'.repeat(200)}${secret}${'.'.repeat(40)}`);
    const keeper = new HeadTailKeeper(100, [secret]);
    keeper.push(data);
    const kept = keeper.finish();
    expect(kept.text).toBe(
      `${'.'.repeat(40)}\n[... safe-run: ${data.length - 80} bytes omitted ...]\n${'.'.repeat(40)}`,
    );
  });

  it('accounts for every byte whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '\n', 'é', '€', '😀'), maxLength: 400 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 50 }),
        (text, cap, chunkSize) => {
          const data = Buffer.from(text);
          const keeper = new HeadTailKeeper(cap);
          pushInChunks(keeper, data, chunkSize);
          const kept = keeper.finish();
          expect(kept.bytes).toBe(data.length);
          expect(kept.binary).toBe(false);
          if (data.length <= cap) expect(kept.text).toBe(text);
          else expectHonestJoin(data, kept.text!, kept.omittedBytes);
          expect(keeper.retainedBytes).toBeLessThanOrEqual(cap + 1);
        },
      ),
    );
  });
});
