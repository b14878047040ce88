import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/index.js';

function sh(script: string): string {
  return execFileSync('bash', ['--norc', '-c', script], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, BIN, NO_COLOR: '1' },
  });
}

// The last stage's stdout is the pipeline's product: it must arrive whole and in order, also when
// the reader of safe-run's stdout is slower than the stage (writes then complete later).
describe('live stdout', () => {
  it('delivers every byte, in order, to a slow reader', () => {
    const expected = sh('seq 1 300000 | md5sum');
    expect(sh('"$BIN" -q --no-facts -- seq 1 300000 | (sleep 0.5; md5sum)')).toBe(expected);
    expect(sh('"$BIN" -q --no-facts -c "seq 1 300000 | cat" | (sleep 0.5; md5sum)')).toBe(expected);
  });

  it('delivers every byte to a file and to a fast pipe', () => {
    const expected = sh('seq 1 300000 | md5sum');
    expect(sh('"$BIN" -q --no-facts -- seq 1 300000 | md5sum')).toBe(expected);
    expect(sh('f=$(mktemp); "$BIN" -q --no-facts -- seq 1 300000 > "$f"; md5sum < "$f"; rm -f "$f"')).toBe(
      expected,
    );
  });
});

describe('the final report', () => {
  it('reaches a slow reader whole, however large', () => {
    // The report holds timings, so two runs differ by a digit or two: check this one run's document
    // is whole (it parses, and the kept stdout is every line) rather than comparing two sizes.
    const document = sh('"$BIN" --json --no-facts --max-stdout 4MiB -- seq 1 300000 | (sleep 0.5; cat)');
    expect(document.length).toBeGreaterThan(2_000_000);
    const report = JSON.parse(document);
    expect(report.stages[0].stdout.text).toBe(sh('seq 1 300000'));
    expect(report.stages[0].stdout.truncated).toBe(false);
  });

  it('does not crash when the reader of the report leaves early', () => {
    const out = sh(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source, not a template
      '"$BIN" --json --no-facts --max-stdout 4MiB -- seq 1 300000 | head -c 10; echo " status=${PIPESTATUS[0]}"',
    );
    expect(out).toBe('{\n  "schem status=0\n');
  });
});
