import { describe, expect, it } from 'vitest';
import { clipText } from '../../src/mcp/tool-text.js';

describe('clipText', () => {
  it('leaves text within the budget alone', () => {
    expect(clipText('a\nb\n', 4)).toBe('a\nb\n');
  });

  it('keeps whole lines of the head and tail and says how much was cut', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const clipped = clipText(text, 60);
    expect(clipped.startsWith('line 0\nline 1\n')).toBe(true);
    expect(clipped.endsWith('line 98\nline 99')).toBe(true);
    const cut = /\[\.\.\. (\d+) B cut here \.\.\.\]/.exec(clipped);
    expect(cut).not.toBeNull();
    const kept = clipped.replace(/\[\.\.\. .* cut here \.\.\.\]\n/, '');
    expect(Buffer.byteLength(kept) + Number(cut![1])).toBe(Buffer.byteLength(text));
  });
});
