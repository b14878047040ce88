// Measures safe-run's interpreter on mvdan/sh's interp test cases (issue 23's "Must show"): each case's
// text run by `bash -o pipefail -c` and by `safe-run -c`, classified as interpreted and the same as
// bash, interpreted and different, or refused (grouped by why). The cases are read from a snapshot of
// mvdan/sh when one is given and never copied here; without one the measure is skipped.
//
//   node scripts/mvdan/measure.mjs --source DIR [--out results.json] [--jobs 2] [--cases 3,17,40-60]
//
// DIR is a checkout of mvdan/sh or its git directory (github:mvdan/sh, or $MVDAN_SH).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { classify } from './classify.mjs';
import { readCases } from './go-cases.mjs';
import { caseEnv, runBash, runSafeRun, writeGoshProg } from './run-both.mjs';
import { summarize } from './summary.mjs';

const TEST_FILE = 'interp/interp_test.go';

function readSource(dir) {
  if (!dir || !fs.existsSync(dir)) return null;
  const file = path.join(dir, TEST_FILE);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  return execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${TEST_FILE}`], { encoding: 'utf8' });
}

// "3,17,40-60" to a set of case numbers (1-based).
function pickCases(spec) {
  if (!spec) return null;
  const picked = new Set();
  for (const part of spec.split(',')) {
    const [from, to] = part.split('-').map(Number);
    for (let n = from; n <= (to ?? from); n++) picked.add(n);
  }
  return picked;
}

async function measureCase(testCase, worker) {
  const text = testCase.in.toString('utf8');
  if (text.includes('\0')) return { kind: 'excluded', why: 'a NUL byte cannot be in an argument' };
  const dir = path.join(worker.root, 'case');
  const bash = await runBash(text, dir, worker.env);
  const bashAgain = await runBash(text, dir, worker.env);
  const ours = await runSafeRun(text, worker.root, dir, worker.env);
  const result = classify(bash, bashAgain, ours);
  if (result.kind === 'same' && result.stderrSame) return result;
  return { ...result, bash: brief(bash), ours: brief(ours) };
}

function brief(run) {
  return { code: run.code, stdout: run.stdout.slice(0, 400), stderr: run.stderr.slice(0, 400) };
}

async function main() {
  const { values } = parseArgs({
    options: {
      source: { type: 'string' },
      out: { type: 'string' },
      jobs: { type: 'string' },
      cases: { type: 'string' },
    },
  });
  const source = readSource(values.source ?? process.env.MVDAN_SH);
  if (source === null) {
    console.log('skipped: no snapshot of mvdan/sh (give --source DIR or MVDAN_SH)');
    return;
  }
  const picked = pickCases(values.cases);
  const cases = readCases(source)
    .map((c, i) => ({ ...c, n: i + 1 }))
    .filter((c) => picked === null || picked.has(c.n));
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mvdan-measure-'));
  const workers = Array.from({ length: Number(values.jobs ?? 2) }, (_, k) => {
    const root = path.join(base, `w${k}`);
    fs.mkdirSync(root, { recursive: true });
    writeGoshProg(root);
    return { root, env: caseEnv(root) };
  });
  const results = [];
  let next = 0;
  await Promise.all(
    workers.map(async (worker) => {
      while (next < cases.length) {
        const testCase = cases[next++];
        const result = await measureCase(testCase, worker);
        results.push({ n: testCase.n, line: testCase.line, text: testCase.in.toString('utf8'), ...result });
        if (results.length % 100 === 0) process.stderr.write(`${results.length}/${cases.length}\n`);
      }
    }),
  );
  fs.rmSync(base, { recursive: true, force: true });
  results.sort((a, b) => a.n - b.n);
  if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(results, null, 1)}\n`);
  console.log(summarize(results));
}

await main();
