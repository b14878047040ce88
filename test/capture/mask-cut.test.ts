import { describe, expect, it } from 'vitest';
import { maskCut, maskShortened } from '../../src/capture/mask-cut.js';
import { RecentLine } from '../../src/capture/recent-line.js';

const SECRET = 'ghp_0123456789abcdef';

describe('masking text that was cut', () => {
  it('masks the start of a secret left right before an ellipsis, and whole ones elsewhere', () => {
    expect(maskShortened(`"${'9'.repeat(30)}ghp_01234…" and ${SECRET}`, [SECRET])).toBe(
      `"${'9'.repeat(30)}***…" and ***`,
    );
    expect(maskShortened('pid 7 `sh -c : ghp_0...`', [SECRET])).toBe('pid 7 `sh -c : ***...`');
  });

  it('leaves text alone where no piece of a secret touches a cut', () => {
    expect(maskShortened('waiting... then done…', [SECRET])).toBe('waiting... then done…');
    // Two characters are too few to count as a piece: ordinary text stays as it is.
    expect(maskShortened('see gh...', [SECRET])).toBe('see gh...');
    expect(maskCut('plain line', [SECRET], { start: true, end: true })).toBe('plain line');
  });

  it('masks the end of a secret at a cut start and its start at a cut end', () => {
    expect(maskCut('cdef rest', [SECRET], { start: true, end: false })).toBe('*** rest');
    expect(maskCut('cdef rest', [SECRET], { start: false, end: false })).toBe('cdef rest');
    expect(maskCut('auth ghp_01', [SECRET], { start: false, end: true })).toBe('auth ***');
  });
});

describe('the last line a progress display shows', () => {
  it('never shows the start of a secret that is still being written', () => {
    const recent = new RecentLine(512, [SECRET]);
    recent.push(Buffer.from('done\nauth with ghp_0123'));
    expect(recent.lastLine()).toBe('auth with ***');
    recent.push(Buffer.from('456789abcdef ok\n'));
    expect(recent.lastLine()).toBe('auth with *** ok');
  });

  it('never shows the end of a secret whose start fell out of the kept window', () => {
    const recent = new RecentLine(16, [SECRET]);
    recent.push(Buffer.from(`x ${SECRET} tail\n`));
    expect(recent.lastLine()).toBe('*** tail');
  });
});
