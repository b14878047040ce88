import { describe, expect, it } from 'vitest';
import { OutputWindow } from '../../src/mcp/output-window.js';
import { cutMarker, renderOutput } from '../../src/mcp/tool-text.js';

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join('');

describe('the output window of a call', () => {
  it('leaves output within the budget alone', () => {
    const window = new OutputWindow(100);
    window.push(Buffer.from('a\nb\n'));
    expect(window.read()).toEqual({ head: 'a\nb\n', tail: '', cut: null, bytes: 4, binary: false });
  });

  it('keeps whole lines of the head and tail, and says exactly which bytes and lines it cut', () => {
    const text = lines(1, 1000);
    const window = new OutputWindow(200);
    // Pushed in odd pieces, as a pipe delivers them.
    for (let at = 0; at < text.length; at += 37) window.push(Buffer.from(text.slice(at, at + 37)));
    const read = window.read();
    expect(read.head.startsWith('line 1\nline 2\n')).toBe(true);
    expect(read.head.endsWith('\n')).toBe(true);
    expect(read.tail.endsWith('line 999\nline 1000\n')).toBe(true);
    const cut = read.cut!;
    expect(Buffer.byteLength(read.head) + cut.bytes + Buffer.byteLength(read.tail)).toBe(
      Buffer.byteLength(text),
    );
    // The cut lines are the ones missing between the head's last line and the tail's first.
    const headLines = read.head.split('\n').length - 1;
    const tailFirst = Number(/^line (\d+)/.exec(read.tail)![1]);
    expect(cut.fromLine).toBe(headLines + 1);
    expect(cut.toLine).toBe(tailFirst - 1);
    expect(
      text
        .split('\n')
        .slice(cut.fromLine - 1, cut.toLine)
        .join('\n').length + 1,
    ).toBe(cut.bytes);
  });

  it('says the cut in the lines and bytes of the whole stream when it starts later in it', () => {
    const window = new OutputWindow(40, 5000, 101);
    window.push(Buffer.from(lines(101, 200)));
    expect(window.read().cut!.fromLine).toBeGreaterThan(101);
    expect(window.read().cut!.fromByte).toBeGreaterThan(5000);
  });

  it('names the file with the whole output and a sed command for the lines cut', () => {
    const marker = cutMarker(
      { bytes: 14_765_432, fromLine: 1024, toLine: 1_998_976, fromByte: 9000 },
      { path: '/tmp/s/output/3.txt', complete: true, bytesWritten: 14_800_000 },
    );
    expect(marker).toBe(
      '[... 14,765,432 bytes (14.1 MiB, lines 1,024-1,998,976) cut here; the whole output is in /tmp/s/output/3.txt: read a part with run, e.g. sed -n \'1024,1123p\' /tmp/s/output/3.txt, or grep it; or pass a larger "budget" ...]',
    );
  });

  it('ends output that does not end a line with a note', () => {
    const window = new OutputWindow(100);
    window.push(Buffer.from('no newline'));
    expect(renderOutput({ text: window.read(), file: null })).toBe(
      '--- output ---\nno newline\n[no newline at the end]\n',
    );
  });
});
