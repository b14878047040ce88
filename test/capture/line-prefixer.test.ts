import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinePrefixer, NO_NEWLINE_MARK } from '../../src/capture/line-prefixer.js';

describe('LinePrefixer', () => {
  it('returns only whole lines, each prefixed', () => {
    const prefixer = new LinePrefixer('[grep] ');
    expect(prefixer.push(Buffer.from('one\ntwo\nthr')).toString()).toBe('[grep] one\n[grep] two\n');
    expect(prefixer.push(Buffer.from('ee')).toString()).toBe('');
    expect(prefixer.heldBytes).toBe(5);
    expect(prefixer.push(Buffer.from('\n')).toString()).toBe('[grep] three\n');
  });

  it('keeps empty lines and carriage returns as they are', () => {
    const prefixer = new LinePrefixer('> ');
    expect(prefixer.push(Buffer.from('\na\r\n\n')).toString()).toBe('> \n> a\r\n> \n');
  });

  it('ends a last line without newline on flush, and says so', () => {
    const prefixer = new LinePrefixer('[sort] ');
    expect(prefixer.push(Buffer.from('done\nno newline')).toString()).toBe('[sort] done\n');
    expect(prefixer.flush().toString()).toBe(`[sort] no newline${NO_NEWLINE_MARK}\n`);
    expect(prefixer.flush().length).toBe(0);
  });

  it('passes a line longer than maxLine on in prefixed pieces, holding at most maxLine bytes', () => {
    const prefixer = new LinePrefixer('[x] ', 10);
    const out: string[] = [];
    for (const piece of ['abcdefgh', 'ijklmnop', 'qrstuvwxy', 'z\n']) {
      out.push(prefixer.push(Buffer.from(piece)).toString());
      expect(prefixer.heldBytes).toBeLessThanOrEqual(10);
    }
    expect(out.join('')).toBe('[x] abcdefghij\n[x] klmnopqrst\n[x] uvwxyz\n');
  });

  it('emits a line of exactly maxLine bytes whole', () => {
    const prefixer = new LinePrefixer('', 5);
    expect(prefixer.push(Buffer.from('ab')).toString()).toBe('');
    expect(prefixer.push(Buffer.from('cde\n12345\n')).toString()).toBe('abcde\n12345\n');
  });

  it('never splits a multibyte character, also when it arrives in two chunks', () => {
    const prefixer = new LinePrefixer('| ', 8);
    const data = Buffer.from('€€€€€€\n');
    const out = Buffer.concat([
      prefixer.push(data.subarray(0, 4)),
      prefixer.push(data.subarray(4)),
    ]).toString();
    expect(out).toBe('| €€\n| €€\n| €€\n');
  });

  it('keeps stages apart: every output of push ends at a line end', () => {
    const a = new LinePrefixer('[a] ');
    const b = new LinePrefixer('[b] ');
    const screen: string[] = [];
    for (const [prefixer, text] of [
      [a, 'a1 start'],
      [b, 'b1\nb2 sta'],
      [a, 'ed\n'],
      [b, 'rted\n'],
    ] as const) {
      const out = prefixer.push(Buffer.from(text)).toString();
      if (out) {
        expect(out.endsWith('\n')).toBe(true);
        screen.push(out);
      }
    }
    expect(screen.join('')).toBe('[b] b1\n[a] a1 started\n[b] b2 started\n');
  });

  it('loses nothing: without prefixes the output is the input, whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' '), maxLength: 12 }), { maxLength: 20 }),
        fc.array(fc.nat({ max: 300 }), { maxLength: 6 }),
        (lines, cuts) => {
          const data = Buffer.from(lines.map((line) => `${line}\n`).join(''));
          const prefixer = new LinePrefixer('', 64);
          const parts: Buffer[] = [];
          let from = 0;
          for (const cut of [...cuts, data.length].sort((x, y) => x - y)) {
            parts.push(prefixer.push(data.subarray(from, Math.max(from, cut))));
            from = Math.max(from, cut);
          }
          parts.push(prefixer.flush());
          expect(Buffer.concat(parts).equals(data)).toBe(true);
        },
      ),
    );
  });
  it('bounds every output line and keeps every byte, whatever the line lengths and chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀'), maxLength: 40 }), { maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.nat({ max: 800 }), { maxLength: 6 }),
        (lines, endsWithNewline, cuts) => {
          const text = lines.join('\n') + (endsWithNewline ? '\n' : '');
          const data = Buffer.from(text);
          const prefixer = new LinePrefixer('P', 16);
          const parts: Buffer[] = [];
          let from = 0;
          for (const cut of [...cuts, data.length].sort((x, y) => x - y)) {
            parts.push(prefixer.push(data.subarray(from, Math.max(from, cut))));
            from = Math.max(from, cut);
          }
          parts.push(prefixer.flush());
          const out = Buffer.concat(parts).toString().replace(`${NO_NEWLINE_MARK}\n`, '\n');
          if (text === '') {
            expect(out).toBe('');
            return;
          }
          expect(out.endsWith('\n')).toBe(true);
          const outLines = out.slice(0, -1).split('\n');
          for (const line of outLines) {
            expect(line.startsWith('P')).toBe(true);
            expect(Buffer.byteLength(line) - 1).toBeLessThanOrEqual(16);
          }
          expect(outLines.map((line) => line.slice(1)).join('')).toBe(text.replaceAll('\n', ''));
        },
      ),
    );
  });
});
