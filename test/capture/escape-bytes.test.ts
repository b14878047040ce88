import { describe, expect, it } from 'vitest';
import { escapeBytes, keptText } from '../../src/capture/escape-bytes.js';
import { HeadTailKeeper } from '../../src/capture/head-tail.js';

describe('bytes that are not UTF-8', () => {
  it('are shown as \\xHH and counted; valid characters around them stay as they are', () => {
    expect(escapeBytes(Buffer.from('caf\xe9 \u20ac ok\n', 'latin1'))).toEqual({
      text: 'caf\\xE9 \\xAC ok\n',
      escaped: 2,
    });
    expect(escapeBytes(Buffer.from('na\u00efve €\n'))).toEqual({ text: 'na\u00efve €\n', escaped: 0 });
    // A character cut short, an overlong form, a lone continuation byte.
    expect(escapeBytes(Buffer.from([0x61, 0xe2, 0x82]))).toEqual({ text: 'a\\xE2\\x82', escaped: 2 });
    expect(escapeBytes(Buffer.from([0xc0, 0xaf, 0x62]))).toEqual({ text: '\\xC0\\xAFb', escaped: 2 });
    expect(escapeBytes(Buffer.from([0x80]))).toEqual({ text: '\\x80', escaped: 1 });
  });

  it('make a stream data (binary) only with a NUL byte, or more than 16 and an eighth of them', () => {
    expect(keptText(Buffer.from('one Latin-1 byte: \xe9\n', 'latin1'))?.escaped).toBe(1);
    expect(keptText(Buffer.from('caf\xe9\n', 'latin1'))?.text).toBe('caf\\xE9\n');
    expect(keptText(Buffer.from('a\0b'))).toBeNull();
    expect(keptText(Buffer.alloc(100, 0xff))).toBeNull();
    expect(keptText(Buffer.concat([Buffer.alloc(17, 0xe9), Buffer.alloc(200, 0x41)]))?.escaped).toBe(17);
  });

  it('are escaped in the text a stream keeps, head and tail, and counted there', () => {
    const small = new HeadTailKeeper(1024);
    small.push(Buffer.from('error: caf\xe9 not found\n', 'latin1'));
    expect(small.finish()).toMatchObject({
      text: 'error: caf\\xE9 not found\n',
      binary: false,
      escapedBytes: 1,
    });
    const cut = new HeadTailKeeper(64);
    cut.push(Buffer.from(`\xe9 head\n${'x'.repeat(200)}\ntail \xe8\n`, 'latin1'));
    const kept = cut.finish();
    expect(kept.text).toMatch(/^\\xE9 head\n/);
    expect(kept.text).toMatch(/tail \\xE8\n$/);
    expect(kept.escapedBytes).toBe(2);
  });
});
