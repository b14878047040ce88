// A CI job as GitHub runs it (issue 25): 15 trivial `run:` steps, each a script file run the way
// the runner runs a step, under its own shell line and under the one docs/ci.md recommends,
// `safe-run -e --script {0}`, with the runner's variables and files. Two floors in the same rounds
// say what the excess per step is made of: a Node start before each step, and safe-run's command
// line starting and running nothing (`safe-run --version`) before each step.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SR } from './cases.mjs';
import { formatMs } from './rounds.mjs';
import { median, range } from './stats.mjs';

const DRIVER = fileURLToPath(new URL('./ci-job.sh', import.meta.url));
const RUNNER_SHELL = ['bash', '--noprofile', '--norc', '-eo', 'pipefail'];
// docs/ci.md: `shell: safe-run -e --script {0}`; the driver puts the step's file last, as {0} is.
const SAFE_RUN_SHELL = [SR, '-e', '--script'];
const BASH_STEP = 'exec bash --noprofile --norc -eo pipefail';

const hasGit = spawnSync('git', ['--version']).status === 0;

// The steps' bodies, as a workflow's `run:` blocks would have them: built-ins, small programs, a
// Node one-liner, a 3-line script with a pipeline, the runner's files and a workflow command.
const STEPS = [
  'echo "job $GITHUB_JOB of $GITHUB_REPOSITORY, run $GITHUB_RUN_ID"',
  'test -f package.json',
  'mkdir -p build/out',
  'node -e "console.log(process.versions.node)"',
  'echo "files in src:"\nls src | wc -l\necho listed',
  'grep -c TODO notes.txt',
  hasGit ? 'git --version' : 'id -u',
  'echo "version=1.0.$GITHUB_RUN_ID" >> "$GITHUB_OUTPUT"',
  'head -n 3 package.json',
  'cp notes.txt build/out/\ntest -s build/out/notes.txt',
  'printf "%s\\n" c a b | sort | head -n 1',
  'echo "::notice::built $GITHUB_REF"',
  'echo "### built" >> "$GITHUB_STEP_SUMMARY"',
  'date -u +%Y-%m-%dT%H:%M:%SZ',
  'uname -sm',
];
export const CI_STEPS = STEPS.length;

// The job's files under dir: the step scripts, a workspace with what the steps read, and the
// runner's temp directory; returns the paths and the variables the runner sets for every step.
function writeJob(dir) {
  const workspace = path.join(dir, 'workspace');
  const temp = path.join(dir, 'runner-temp');
  const steps = path.join(temp, 'steps');
  for (const d of [path.join(workspace, 'src'), steps, path.join(dir, 'tool-cache')])
    fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(
    path.join(workspace, 'package.json'),
    '{\n  "name": "example",\n  "version": "1.0.0"\n}\n',
  );
  for (const name of ['a', 'b', 'c', 'd', 'e'])
    fs.writeFileSync(path.join(workspace, 'src', `${name}.c`), '');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'TODO: tests\nship it\nTODO: docs\n');
  STEPS.forEach((body, i) => {
    fs.writeFileSync(path.join(steps, `step-${String(i + 1).padStart(2, '0')}.sh`), `${body}\n`);
  });
  const env = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: 'example/project',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'build',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_TEMP: temp,
    RUNNER_TOOL_CACHE: path.join(dir, 'tool-cache'),
  };
  return { steps, env, summary: path.join(temp, '_runner_file_commands', 'step_summary') };
}

const jobDone = (sample) =>
  sample.stdout.includes(`job: ${CI_STEPS} steps ok`)
    ? null
    : `the job did not end: stdout ends ${JSON.stringify(sample.stdout.slice(-200))}`;

// Under safe-run the last step's summary file must hold safe-run's summary: it ran as in GitHub.
const summaryWritten = (file) => (sample) => {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return jobDone(sample) ?? (text.includes('### safe-run: ok') ? null : `no safe-run summary in ${file}`);
};

export function ciSection(tmpDir) {
  const job = writeJob(path.join(tmpDir, 'ci-job'));
  const kase = (id, label, shell, display, rest = {}) => ({
    id,
    label,
    argv: ['sh', DRIVER, job.steps, ...shell],
    env: job.env,
    stdout: 'capture',
    stderr: 'capture',
    check: jobDone,
    vs: [],
    display: `${CI_STEPS} × ${display} STEP.sh  (sh scripts/bench/ci-job.sh)`,
    ...rest,
  });
  const node = ['sh', '-c', `node -e 0 && ${BASH_STEP} "$0"`];
  const version = ['sh', '-c', `"$0" --version > /dev/null && ${BASH_STEP} "$1"`, SR];
  return {
    id: 'ci',
    title: `9. A CI job of ${CI_STEPS} trivial run: steps, as the GitHub runner runs them`,
    cases: [
      kase('ci-plain', 'runner shell', RUNNER_SHELL, RUNNER_SHELL.join(' ')),
      kase('ci-node', 'node -e 0 + runner shell', node, `sh -c 'node -e 0 && ${BASH_STEP} "$0"'`, {
        vs: ['ci-plain'],
      }),
      kase(
        'ci-version',
        'safe-run --version + runner shell',
        version,
        `sh -c '"$0" --version > /dev/null && ${BASH_STEP} "$1"' safe-run`,
        {
          vs: ['ci-plain', 'ci-node'],
        },
      ),
      kase('ci-sr', 'safe-run shell', SAFE_RUN_SHELL, 'safe-run -e --script', {
        check: summaryWritten(job.summary),
        vs: ['ci-plain', 'ci-node', 'ci-version'],
      }),
    ],
  };
}

// Per round, (case - base) / steps for the key; rounds where either failed are left out.
function perStep(byId, id, baseId, key) {
  const a = byId.get(id)?.samples ?? [];
  const b = byId.get(baseId)?.samples ?? [];
  return a.flatMap((x, round) =>
    x && b[round] && x[key] !== null && b[round][key] !== null ? [(x[key] - b[round][key]) / CI_STEPS] : [],
  );
}

const spread = (values) => {
  if (values.length === 0) return 'no samples';
  const [lo, hi] = range(values);
  return `${formatMs(median(values))} (${formatMs(lo)}–${formatMs(hi)})`;
};

// The lines under the table: the job's ratio, and what a step costs more under safe-run and what
// that is made of; null when the section did not run.
export function ciJobCost(done) {
  const ci = done.find(({ section }) => section.id === 'ci');
  if (!ci) return null;
  const byId = new Map(ci.results.map((r) => [r.case.id, r]));
  const wall = (id) => median((byId.get(id)?.samples ?? []).filter(Boolean).map((s) => s.wallMs));
  const ratios = (byId.get('ci-sr')?.samples ?? []).flatMap((x, round) => {
    const y = byId.get('ci-plain')?.samples[round];
    return x && y ? [x.wallMs / y.wallMs] : [];
  });
  if (ratios.length === 0) return null;
  const [lo, hi] = range(ratios);
  const x = (v) => `${v.toFixed(2)}x`;
  // CPU is GNU time's, of the whole job with its children: it does not stretch with the load as
  // wall time does, so it says what a step costs in work.
  const excess = (id, baseId) =>
    `wall ${spread(perStep(byId, id, baseId, 'wallMs'))}, CPU ${spread(perStep(byId, id, baseId, 'cpuMs'))}`;
  return [
    `A CI job of ${CI_STEPS} run: steps (section ci, medians over rounds): safe-run shell ${formatMs(wall('ci-sr'))}, runner shell ${formatMs(wall('ci-plain'))}: ${x(median(ratios))} (${x(lo)}–${x(hi)})`,
    `- per step, safe-run's excess over the runner shell: ${excess('ci-sr', 'ci-plain')}`,
    `- of which a Node start (\`node -e 0\`): ${excess('ci-node', 'ci-plain')}`,
    `- of which the command line's start-up (\`safe-run --version\`, Node's start included): ${excess('ci-version', 'ci-plain')}`,
    `- the rest, running the step's script: ${excess('ci-sr', 'ci-version')}`,
    '',
  ].join('\n');
}
