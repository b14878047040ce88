import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';

// The directories of a test file that publishes an output (--output, --atomic-redirects), made anew
// before each test and removed after it. `dir` holds `out`, out.txt with old content: what a run that
// must not publish has to leave exactly as it was. `signals` is where fixtures say "I have started":
// outside `dir`, which must end up clean.
export interface OutputScratch {
  readonly dir: string;
  readonly out: string;
  readonly signals: string;
  // The names in dir, sorted.
  listing(): string[];
  // out.txt still holds the old content, and nothing was left beside it.
  expectUntouched(): void;
}

// Call at the top of a test file: it registers the hooks that make and remove the directories.
export function outputScratch(prefix: string): OutputScratch {
  const scratch = {
    dir: '',
    out: '',
    signals: '',
    listing: () => fs.readdirSync(scratch.dir).sort(),
    expectUntouched: () => {
      expect(fs.readFileSync(scratch.out, 'utf8')).toBe('old content\n');
      expect(scratch.listing()).toEqual(['out.txt']);
    },
  };
  beforeEach(() => {
    scratch.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    scratch.signals = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-signals-`));
    scratch.out = path.join(scratch.dir, 'out.txt');
    fs.writeFileSync(scratch.out, 'old content\n');
  });
  afterEach(() => {
    fs.rmSync(scratch.dir, { recursive: true, force: true });
    fs.rmSync(scratch.signals, { recursive: true, force: true });
  });
  return scratch;
}
