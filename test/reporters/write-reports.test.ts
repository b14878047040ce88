import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { planFromArgv, run } from '../../src/index.js';
import { jsonReporter } from '../../src/reporters/json.js';
import type { Reporter } from '../../src/reporters/reporter.js';
import { writeReports } from '../../src/reporters/write-reports.js';

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}

describe('reporters', () => {
  it('each write what they render where they go, in order', async () => {
    const report = await run(planFromArgv(['true'], { facts: null }));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-reporters-'));
    const file = path.join(dir, 'report.json');
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    const err = collect(stderr);
    const summary: Reporter = {
      name: 'summary',
      destination: { kind: 'stderr' },
      render: (r) => `${r.stages.length} stage, exit ${r.exitCode}\n`,
    };
    await writeReports(
      report,
      [
        jsonReporter({ kind: 'file', path: file, flag: '--report' }),
        jsonReporter({ kind: 'stdout' }),
        summary,
      ],
      {
        stdout,
        stderr,
      },
    );
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(report);
    expect(JSON.parse(out())).toEqual(report);
    expect(err()).toBe('1 stage, exit 0\n');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says on stderr, after everything else, that a report file could not be written', async () => {
    const report = await run(planFromArgv(['true'], { facts: null }));
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const err = collect(stderr);
    const missing = path.join(os.tmpdir(), 'safe-run-no-such-dir', 'r.json');
    const summary: Reporter = { name: 'summary', destination: { kind: 'stderr' }, render: () => 'table\n' };
    await writeReports(report, [jsonReporter({ kind: 'file', path: missing, flag: '--report' }), summary], {
      stdout,
      stderr,
    });
    expect(err()).toBe(
      `table\nsafe-run: warning: --report ${missing} could not be written (ENOENT); nothing was left there\n`,
    );
  });
});
