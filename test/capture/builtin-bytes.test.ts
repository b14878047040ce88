import { describe, expect, it } from 'vitest';
import { runJson } from '../helpers/index.js';

// A builtin's output is kept as a program's is: a byte that is not UTF-8 as \xHH (counted), data (a
// NUL byte) as binary with no text; it was decoded with U+FFFD in its place.
describe("a builtin's kept output", () => {
  it('shows a Latin-1 byte as \\xE9, as a program does', async () => {
    const builtin = await runJson(['-c', "printf 'caf\\351\\n'"]);
    const program = await runJson(['-c', "env printf 'caf\\351\\n'"]);
    expect(builtin.report.stages[0]!.stdout).toMatchObject({
      text: 'caf\\xE9\n',
      escapedBytes: 1,
      binary: false,
    });
    expect(program.report.stages[0]!.stdout).toMatchObject({ text: 'caf\\xE9\n', escapedBytes: 1 });
  });

  it('is binary, with no text, when it holds a NUL byte', async () => {
    const { report } = await runJson(['-c', "printf 'a\\0b'"]);
    expect(report.stages[0]!.stdout).toMatchObject({ bytes: 3, text: null, binary: true });
  });

  it('keeps UTF-8 as it is', async () => {
    const { report } = await runJson(['-c', 'echo héllo']);
    expect(report.stages[0]!.stdout).toMatchObject({ text: 'héllo\n', binary: false });
    expect(report.stages[0]!.stdout).not.toHaveProperty('escapedBytes');
  });
});
