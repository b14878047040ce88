import { spawnSync } from 'node:child_process';
import { parse, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { LinePrefixer } from '../../../src/capture/line-prefixer.js';
import { RecentLine } from '../../../src/capture/recent-line.js';
import { commandText } from '../../../src/reporters/ci/command-text.js';
import { escapeXml } from '../../../src/reporters/ci/junit.js';
import { stampLines } from '../../../src/reporters/ci/timestamps.js';
import { escapeData, escapeProperty } from '../../../src/reporters/ci/workflow-escape.js';

describe('workflow-command escaping', () => {
  it('encodes %, CR and LF in data, so a message stays on its line and decodes back', () => {
    expect(escapeData('100%\r\nnext: a, b')).toBe('100%25%0D%0Anext: a, b');
    const decode = (text: string) =>
      text.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
    expect(decode(escapeData('%0A is not a newline\n%'))).toBe('%0A is not a newline\n%');
  });

  it('also encodes : and , in properties, which would otherwise end a title', () => {
    expect(escapeProperty('safe-run: stage 1, "x"\n%')).toBe('safe-run%3A stage 1%2C "x"%0A%25');
  });
});

describe('command text', () => {
  it('quotes only words a shell would split or expand, and quotes quotes', () => {
    expect(commandText(['grep', '-c', 'a b', "it's", '$HOME', 'x=1,2:3'])).toBe(
      `grep -c 'a b' 'it'\\''s' '$HOME' x=1,2:3`,
    );
  });

  it("keeps a word with a newline on one line as bash's $'...', which bash reads back", () => {
    const word = "a\nb'\\\t\x1b";
    const text = commandText(['printf', word]);
    expect(text).toBe("printf $'a\\nb\\'\\\\\\t\\x1b'");
    const back = spawnSync('bash', ['--norc', '-c', `printf '%s' ${text.slice('printf '.length)}`], {
      encoding: 'utf8',
    });
    expect(back.stdout).toBe(word);
  });
});

describe('JUnit XML escaping', () => {
  it('turns markup into entities and characters XML cannot hold into \\xHH or \\uHHHH', async () => {
    const text = `<a href="x">&'\x1b[31m\x00\uFFFF ok`;
    expect(escapeXml(text)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;\\x1B[31m\\x00\\uFFFF ok');
    const parsed = (await parse(
      `<testsuites name="${escapeXml(text)}"><testsuite name="s"></testsuite></testsuites>`,
    )) as TestSuites;
    expect(parsed.name).toBe('<a href="x">&\'\\x1B[31m\\x00\\uFFFF ok');
  });
});

describe('timestamps', () => {
  it('stamps every line with the UTC time of day and keeps the final newline as it was', () => {
    const at = new Date('2026-12-01T04:05:06.789Z');
    expect(stampLines('a\nb\n', at)).toBe('04:05:06.789 a\n04:05:06.789 b\n');
    expect(stampLines('a', at)).toBe('04:05:06.789 a');
    expect(stampLines('', at)).toBe('');
  });

  it('lets the line prefixer put a fresh prefix before the lines of each chunk', () => {
    // The prefix is asked for once when the prefixer is made, then once per chunk: a line that
    // spans chunks carries the time it was completed.
    let n = 0;
    const prefixer = new LinePrefixer(() => `${++n} [x] `);
    expect(prefixer.push(Buffer.from('one\ntwo\nhal')).toString()).toBe('2 [x] one\n2 [x] two\n');
    expect(prefixer.push(Buffer.from('f\n')).toString()).toBe('3 [x] half\n');
    expect(prefixer.push(Buffer.from('end')).toString()).toBe('');
    expect(prefixer.flush().toString()).toBe('5 [x] end [safe-run: no newline at end]\n');
  });
});

describe('the last line a stage printed', () => {
  it('is the last non-empty line, across chunks, with carriage returns ending a line', () => {
    const recent = new RecentLine(16);
    expect(recent.lastLine()).toBeNull();
    recent.push(Buffer.from('first\nsec'));
    expect(recent.lastLine()).toBe('sec');
    recent.push(Buffer.from('ond\n\n'));
    expect(recent.lastLine()).toBe('second');
    recent.push(Buffer.from('10%\r20%\r'));
    expect(recent.lastLine()).toBe('20%');
    recent.push(Buffer.from(`${'y'.repeat(40)}\n`));
    expect(recent.lastLine()).toBe('y'.repeat(16 - 1));
  });
});
