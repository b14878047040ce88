import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/index.js';

function sh(script: string): string {
  return execFileSync('bash', ['-c', script], {
    encoding: 'utf8',
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
    const size = sh('"$BIN" --json --no-facts --max-stdout 4MiB -- seq 1 300000 | (sleep 0.5; wc -c)');
    const direct = sh(
      'f=$(mktemp); "$BIN" --json --no-facts --max-stdout 4MiB -- seq 1 300000 > "$f"; wc -c < "$f"; rm -f "$f"',
    );
    expect(Number(size)).toBeGreaterThan(2_000_000);
    expect(Number(size)).toBe(Number(direct));
  });

  it('does not crash when the reader of the report leaves early', () => {
    const out = sh(
      '"$BIN" --json --no-facts --max-stdout 4MiB -- seq 1 300000 | head -c 10; echo " status=${PIPESTATUS[0]}"',
    );
    expect(out).toBe('{\n  "schem status=0\n');
  });
});
