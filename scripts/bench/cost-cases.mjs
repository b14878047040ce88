// The per-command cost sections (issue 14): start-up with many other processes on the machine, many
// stages against bash, and a text of several steps against one step. Each compares cases measured in
// the same rounds, as every other section does. The case shape is cases.mjs's.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withIdleProcesses, withPidChurn } from './load-around.mjs';
import { median } from './stats.mjs';

const SR = 'safe-run';
export const IDLE_PROCESSES = 2000;
const STAGES = 32;
// The bare shape of a Node-hosted safe-run (bare-shape.mjs), run by this Node whatever the cwd.
const BARE_SHAPE = fileURLToPath(new URL('./bare-shape.mjs', import.meta.url));
export const bareShape = (mode, count) => [process.execPath, BARE_SHAPE, mode, String(count)].filter(Boolean);
export const bareDisplay = (mode, count) => `node scripts/bench/bare-shape.mjs ${mode} ${count}`.trim();

const expect = (text) => (sample) =>
  sample.stdout.trim() === text
    ? null
    : `stdout was ${JSON.stringify(sample.stdout.slice(0, 200))}, expected ${text}`;

function make(id, label, argv, rest = {}) {
  const display = argv.map((a) => (/^[\w./=:,+-]+$/.test(a) ? a : `'${a}'`)).join(' ');
  return {
    id,
    label,
    argv,
    stdout: 'capture',
    stderr: 'capture',
    vs: [],
    ...rest,
    display: rest.display ?? display,
  };
}

// Start-up plus teardown of one command on a quiet machine, with `count` idle processes, and with a
// pid churn loop; the bare shape of one command (bare-shape.mjs start, no safe-run code) quiet and
// under the same churn, for what the churn costs any process (it takes a core).
export function procsSection(count = IDLE_PROCESSES) {
  const around = (run) => withIdleProcesses(count, run);
  const bareStart = bareShape('start', '');
  return {
    id: 'procs',
    title: `5. Start-up plus teardown with ${count} idle processes of the same user, and under pid churn`,
    cases: [
      make('procs-quiet', 'safe-run, quiet machine', [SR, '-q', '--', 'true']),
      make('procs-busy', `safe-run, ${count} sleeps`, [SR, '-q', '--', 'true'], {
        around,
        display: `safe-run -q -- true  (with ${count} × sleep 600)`,
        vs: ['procs-quiet'],
      }),
      make('procs-churn', 'safe-run, pid churn', [SR, '-q', '--', 'true'], {
        around: withPidChurn,
        display: "safe-run -q -- true  (with sh -c 'while :; do /bin/true; done')",
        vs: ['procs-quiet'],
      }),
      make('procs-bare-quiet', 'bare shape, quiet machine', bareStart, { display: bareDisplay('start', '') }),
      make('procs-bare-churn', 'bare shape, pid churn', bareStart, {
        around: withPidChurn,
        display: `${bareDisplay('start', '')}  (with the same churn)`,
        vs: ['procs-bare-quiet'],
      }),
    ],
  };
}

// 32 stages that move one byte: what starting them costs, against bash, and against bash with each
// stage in a session of its own (what Node's detached spawn does: setsid, and so a scheduler autogroup
// of its own where autogroups are on). The two bare shapes, with none of safe-run's code, are the
// least any Node-hosted design pays: Node spawning every stage, or one sh forking them for Node.
export function stagesSection() {
  const middle = Array.from({ length: STAGES - 2 }, () => 'cat');
  const line = ['printf x', ...middle, 'wc -c'].join(' | ');
  const setsidLine = ['printf x', ...middle.map((c) => `setsid -w ${c}`), 'setsid -w wc -c'].join(' | ');
  const check = expect('1');
  return {
    id: 'stages',
    title: `6. ${STAGES} stages moving one byte`,
    cases: [
      make('stages-bash', 'bash', ['bash', '-c', line], {
        check,
        display: `bash -c 'printf x | cat ×${STAGES - 2} | wc -c'`,
      }),
      make('stages-setsid', 'bash setsid', ['bash', '-c', setsidLine], {
        check,
        display: `bash -c 'printf x | setsid -w cat ×${STAGES - 2} | setsid -w wc -c'`,
        vs: ['stages-bash'],
      }),
      make('stages-node-bare', 'bare node spawns', bareShape('stages-node', STAGES), {
        check,
        display: bareDisplay('stages-node', STAGES),
        vs: ['stages-bash'],
      }),
      make('stages-sh-bare', 'bare node + sh forks', bareShape('stages-sh', STAGES), {
        check,
        display: bareDisplay('stages-sh', STAGES),
        vs: ['stages-bash'],
      }),
      make('stages-sr', 'safe-run', [SR, '-q', '-c', line], {
        check,
        display: `safe-run -q -c 'printf x | cat ×${STAGES - 2} | wc -c'`,
        vs: ['stages-bash', 'stages-setsid', 'stages-node-bare'],
      }),
    ],
  };
}

const FOUR_STEPS = 'cd src && ls | wc -l && git status --short | head';
const ONE_STEP = 'ls src | wc -l';

// What a further step costs: a text of STEPS × /bin/true against one, for safe-run and for bash, and
// the floor of it in Node: STEPS spawns of /bin/true from a bare Node program against one.
export const STEPS = 11;
const TRUE_STEPS = Array.from({ length: STEPS }, () => '/bin/true').join('; ');

// A -c loop of ITERATIONS × `/bin/true` against a loop of one: what an iteration that runs a program
// costs (issue 23), against bash and against one bare Node spawn.
export const ITERATIONS = 100;
const loopText = (n, command = '/bin/true') => `for ((i = 0; i < ${n}; i++)); do ${command}; done`;
// A loop of this many iterations of the builtin `true` (a loop of programs would take minutes), its
// --json report measured once (issue 23: a few hundred KB at most, repeated successful iterations
// folded into counts).
export const REPORT_ITERATIONS = 10_000;

// A text of several steps pays start-up once. Needs the shell front end; until -c takes lists and cd
// it refuses the text (exit 125), and the section is skipped with a note saying so.
export function textSection() {
  return {
    id: 'text',
    title: '7. A text of four steps against one step; what a further step and a loop iteration cost',
    cases: [
      make('text-one', '1 step', [SR, '-q', '-c', ONE_STEP]),
      make('text-four', '4 steps', [SR, '-q', '-c', FOUR_STEPS], { vs: ['text-one'] }),
      make('steps-sr-1', 'safe-run, 1 × true', [SR, '-q', '-c', '/bin/true']),
      make('steps-sr-n', `safe-run, ${STEPS} × true`, [SR, '-q', '-c', TRUE_STEPS], {
        display: `safe-run -q -c '/bin/true; ... (${STEPS} steps)'`,
        vs: ['steps-sr-1'],
      }),
      make('steps-bash-1', 'bash, 1 × true', ['bash', '-c', '/bin/true']),
      make('steps-bash-n', `bash, ${STEPS} × true`, ['bash', '-c', TRUE_STEPS], {
        display: `bash -c '/bin/true; ... (${STEPS} steps)'`,
        vs: ['steps-bash-1'],
      }),
      make('steps-node-1', 'node, 1 × spawn true', bareShape('steps', 1), {
        display: bareDisplay('steps', 1),
      }),
      make('steps-node-n', `node, ${STEPS} × spawn true`, bareShape('steps', STEPS), {
        display: bareDisplay('steps', STEPS),
        vs: ['steps-node-1'],
      }),
      make('loop-sr-1', 'safe-run, loop of 1', [SR, '-q', '-c', loopText(1)]),
      make('loop-sr-n', `safe-run, loop of ${ITERATIONS}`, [SR, '-q', '-c', loopText(ITERATIONS)], {
        vs: ['loop-sr-1'],
      }),
      make('loop-bash-1', 'bash, loop of 1', ['bash', '-c', loopText(1)]),
      make('loop-bash-n', `bash, loop of ${ITERATIONS}`, ['bash', '-c', loopText(ITERATIONS)], {
        vs: ['loop-bash-1'],
      }),
    ],
  };
}

// Per round, the wall time of one more unit: (the case of `count` units - the case of one) / (count -
// 1). Rounds where either failed are left out (null).
export function perUnit(text, one, many, count) {
  const samples = Object.fromEntries(text.results.map((r) => [r.case.id, r.samples]));
  return (samples[many] ?? []).map((a, round) => {
    const b = samples[one]?.[round];
    return a && b ? (a.wallMs - b.wallMs) / (count - 1) : null;
  });
}

// The wall time of one further step, and of one loop iteration: the median over rounds, for safe-run,
// for bash and for a bare Node program that only spawns (the floor of any Node host). Null when the
// text section did not run.
export function furtherStepCost(done) {
  const text = done.find(({ section }) => section.id === 'text');
  if (!text) return null;
  const mid = (values) => median(values);
  const sr = mid(perUnit(text, 'steps-sr-1', 'steps-sr-n', STEPS));
  const bash = mid(perUnit(text, 'steps-bash-1', 'steps-bash-n', STEPS));
  const bare = mid(perUnit(text, 'steps-node-1', 'steps-node-n', STEPS));
  const loopSr = mid(perUnit(text, 'loop-sr-1', 'loop-sr-n', ITERATIONS));
  const loopBash = mid(perUnit(text, 'loop-bash-1', 'loop-bash-n', ITERATIONS));
  if (sr === null || bash === null) return null;
  const floor = bare === null ? '' : `, bare Node spawn ${bare.toFixed(1)} ms`;
  const lines = [
    `A further step of a -c text (${STEPS} × /bin/true against 1, median per round): safe-run ${sr.toFixed(1)} ms, bash ${bash.toFixed(1)} ms (${(sr / bash).toFixed(1)}x)${floor}`,
  ];
  if (loopSr !== null && loopBash !== null) {
    lines.push(
      `An iteration of \`${loopText(ITERATIONS)}\` (against a loop of 1, median per round): safe-run ${loopSr.toFixed(3)} ms, bash ${loopBash.toFixed(3)} ms`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// The size of the --json report of a loop of REPORT_ITERATIONS × true, taken once (it does not vary):
// { bytes, stages, ms } or { error }.
export function reportSize(bin, env, cwd) {
  const text = loopText(REPORT_ITERATIONS, 'true');
  const started = Date.now();
  const result = spawnSync(bin, ['--json', '-c', text], { env, cwd, encoding: 'utf8', timeout: 600_000 });
  const ms = Date.now() - started;
  const display = `safe-run --json -c '${text}'`;
  if (result.status !== 0) {
    return {
      display,
      error: `exit ${result.status}: ${(result.stderr || result.error?.message || '').trim()}`,
    };
  }
  try {
    const report = JSON.parse(result.stdout);
    return { display, bytes: Buffer.byteLength(result.stdout), stages: report.stages?.length ?? null, ms };
  } catch {
    return { display, error: `stdout was not one JSON report: ${result.stdout.slice(0, 200)}` };
  }
}

// Null when the text section can run with this safe-run, else why not.
export function textRefusal(bin, cwd) {
  const probe = spawnSync(bin, ['-q', '-c', FOUR_STEPS], { cwd, encoding: 'utf8', timeout: 60_000 });
  if (probe.status === 0) return null;
  const why = (probe.stderr || probe.error?.message || '').trim().split('\n')[0];
  return `skipped: \`safe-run -c '${FOUR_STEPS}'\` exits ${probe.status} (${why}); it needs the shell front end`;
}
