// The per-command cost sections (issue 14): start-up with many other processes on the machine, many
// stages against bash, and a text of several steps against one step. Each compares cases measured in
// the same rounds, as every other section does. The case shape is cases.mjs's.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SR = 'safe-run';
export const IDLE_PROCESSES = 2000;
const STAGES = 32;
// The bare shape of a Node-hosted safe-run (bare-shape.mjs), run by this Node whatever the cwd.
const BARE_SHAPE = fileURLToPath(new URL('./bare-shape.mjs', import.meta.url));
const bareShape = (mode, count) => [process.execPath, BARE_SHAPE, mode, String(count)];
const bareDisplay = (mode, count) => `node scripts/bench/bare-shape.mjs ${mode} ${count}`;

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

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

// `sleep 600` processes of this user, started before a sample and killed right after it, so that the
// sample runs on a machine with that many more processes and none is left behind.
export async function withIdleProcesses(count, run) {
  const sleepers = [];
  try {
    for (let i = 0; i < count; i++) {
      const child = spawn('sleep', ['600'], { stdio: 'ignore', env: { PATH: process.env.PATH } });
      child.on('error', () => {});
      sleepers.push(child);
    }
    // Started means exec'd: a pid whose comm is still "node" is a fork on its way.
    const deadline = Date.now() + 60_000;
    const started = () => sleepers.every((c) => c.pid && commandOf(c.pid) === 'sleep');
    while (!started() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return await run();
  } finally {
    const gone = sleepers.map((c) =>
      c.exitCode !== null || c.signalCode !== null ? null : new Promise((resolve) => c.once('exit', resolve)),
    );
    for (const child of sleepers) child.kill('SIGKILL');
    await Promise.all(gone);
  }
}

export function procsSection(count = IDLE_PROCESSES) {
  const around = (run) => withIdleProcesses(count, run);
  return {
    id: 'procs',
    title: `5. Start-up plus teardown with ${count} idle processes of the same user`,
    cases: [
      make('procs-quiet', 'safe-run, quiet machine', [SR, '-q', '--', 'true']),
      make('procs-busy', `safe-run, ${count} sleeps`, [SR, '-q', '--', 'true'], {
        around,
        display: `safe-run -q -- true  (with ${count} × sleep 600)`,
        vs: ['procs-quiet'],
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
const STEPS = 11;
const TRUE_STEPS = Array.from({ length: STEPS }, () => '/bin/true').join('; ');

// A text of several steps pays start-up once. Needs the shell front end; until -c takes lists and cd
// it refuses the text (exit 125), and the section is skipped with a note saying so.
export function textSection() {
  return {
    id: 'text',
    title: '7. A text of four steps against one step; what a further step costs',
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
    ],
  };
}

// The wall time of one further step: per round, (STEPS steps - 1 step) / (STEPS - 1), then the median
// over rounds; for safe-run, for bash and for a bare Node program that only spawns (the floor of any
// Node host). Null when the text section did not run.
export function furtherStepCost(done) {
  const text = done.find(({ section }) => section.id === 'text');
  if (!text) return null;
  const samples = Object.fromEntries(text.results.map((r) => [r.case.id, r.samples]));
  const perStep = (one, many) => {
    const costs = [];
    for (const [round, a] of (samples[many] ?? []).entries()) {
      const b = samples[one]?.[round];
      if (a && b) costs.push((a.wallMs - b.wallMs) / (STEPS - 1));
    }
    costs.sort((x, y) => x - y);
    return costs.length === 0 ? null : costs[Math.floor(costs.length / 2)];
  };
  const sr = perStep('steps-sr-1', 'steps-sr-n');
  const bash = perStep('steps-bash-1', 'steps-bash-n');
  const bare = perStep('steps-node-1', 'steps-node-n');
  if (sr === null || bash === null) return null;
  const floor = bare === null ? '' : `, bare Node spawn ${bare.toFixed(1)} ms`;
  return `A further step of a -c text (${STEPS} × /bin/true against 1, median per round): safe-run ${sr.toFixed(1)} ms, bash ${bash.toFixed(1)} ms (${(sr / bash).toFixed(1)}x)${floor}\n`;
}

// Null when the text section can run with this safe-run, else why not.
export function textRefusal(bin, cwd) {
  const probe = spawnSync(bin, ['-q', '-c', FOUR_STEPS], { cwd, encoding: 'utf8', timeout: 60_000 });
  if (probe.status === 0) return null;
  const why = (probe.stderr || probe.error?.message || '').trim().split('\n')[0];
  return `skipped: \`safe-run -c '${FOUR_STEPS}'\` exits ${probe.status} (${why}); it needs the shell front end`;
}
