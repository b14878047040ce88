import { describe, expect, it } from 'vitest';
import { LiveCap, liveCapMarker } from '../../src/capture/live-cap.js';

const marker = (cap: number) => liveCapMarker('grep stderr', cap);

describe('LiveCap', () => {
  it('passes everything through while under the cap', () => {
    const cap = new LiveCap(100, 'grep stderr');
    const chunk = Buffer.from('hello\n');
    expect(cap.push(chunk)).toBe(chunk);
    expect(cap.push(Buffer.alloc(94, 'x')).length).toBe(94);
    expect(cap.finish()).toBe(0);
  });

  it('announces the cut once, shows nothing after it and counts what was not shown', () => {
    const cap = new LiveCap(32 * 1024, 'grep stderr');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const first = cap.push(chunk).toString();
    expect(first.endsWith(`\n${marker(32 * 1024)}`)).toBe(true);
    expect(first.length).toBe(32 * 1024 + 1 + marker(32 * 1024).length);
    for (let i = 0; i < 15; i += 1) expect(cap.push(chunk).length).toBe(0);
    expect(cap.finish()).toBe(1_048_576 - 32 * 1024);
    expect(cap.shownBytes).toBe(32 * 1024);
  });

  it('cuts at a line boundary near the cap', () => {
    const cap = new LiveCap(100, 'grep stderr');
    const out = cap.push(Buffer.from(`${'a'.repeat(94)}\n${'b'.repeat(20)}\n`)).toString();
    expect(out).toBe(`${'a'.repeat(94)}\n${marker(100)}`);
    expect(cap.finish()).toBe(21);
  });

  it('cuts before a partial line when the shown output already ended a line', () => {
    const cap = new LiveCap(100, 'grep stderr');
    cap.push(Buffer.from(`${'a'.repeat(97)}\n`));
    expect(cap.push(Buffer.from('bbbbbbbb')).toString()).toBe(marker(100));
    expect(cap.shownBytes).toBe(98);
  });

  it('never splits a multibyte character at the cut', () => {
    const cap = new LiveCap(10, 'x');
    const out = cap.push(Buffer.from('€€€€€')).toString();
    expect(out).toBe(`€€€\n${liveCapMarker('x', 10)}`);
    expect(cap.finish()).toBe(6);
  });

  it('shows only the marker with a cap of 0, and nothing for an empty stream', () => {
    const silent = new LiveCap(0, 'x');
    expect(silent.push(Buffer.alloc(0)).length).toBe(0);
    expect(silent.push(Buffer.from('data')).toString()).toBe(liveCapMarker('x', 0));
    expect(silent.finish()).toBe(4);
  });
});
