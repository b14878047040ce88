// What `safe-run inspect` costs (issue 27): the report on a 10-process tree (bash with 9 sleeps)
// against `node -e 0`, the floor of any Node program, and `safe-run --version`, the command line's
// own start-up, in the same rounds. The tree is started before each sample of every case and killed
// right after it, so all run on a machine holding the same processes, and the inspected pid is put
// into the command line then.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const SR = 'safe-run';
const SLEEPS = 9;
// Stands for the tree's root pid in a case's argv, until the sample's tree exists.
const ROOT = '{tree}';

function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

// bash's children that are sleep already (a pid whose comm is still "bash" is a fork on its way).
function sleepingChildren(pid) {
  const children = read(`/proc/${pid}/task/${pid}/children`).split(' ').filter(Boolean);
  return children.filter((child) => read(`/proc/${child}/comm`).trim() === 'sleep').length;
}

// Runs one sample with the tree up: bash and its 9 sleeps, in a group of their own, killed after.
async function withTree(run) {
  const script = `for i in $(seq ${SLEEPS}); do sleep 600 & done; wait`;
  const tree = spawn('bash', ['-c', script], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH },
  });
  tree.on('error', () => {});
  const gone = new Promise((resolve) => tree.once('exit', resolve));
  try {
    const deadline = Date.now() + 60_000;
    while (sleepingChildren(tree.pid) < SLEEPS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return await run((argv) => argv.map((arg) => (arg === ROOT ? String(tree.pid) : arg)));
  } finally {
    try {
      process.kill(-tree.pid, 'SIGKILL');
    } catch {
      // gone already
    }
    await gone;
  }
}

// The report must cover the whole tree: a sample taken before the sleeps had started proves nothing.
function wholeTree(sample) {
  const want = `${SLEEPS + 1} process(es)`;
  return sample.stdout.includes(want) ? null : `stdout did not say ${want}: ${sample.stdout.slice(0, 200)}`;
}

export function inspectSection() {
  const shown = `bash -c 'for i in $(seq ${SLEEPS}); do sleep 600 & done; wait'`;
  const base = { stdout: 'capture', stderr: 'capture', around: withTree };
  return {
    id: 'inspect',
    title: `8. safe-run inspect of a ${SLEEPS + 1}-process tree (${shown})`,
    cases: [
      {
        ...base,
        id: 'inspect-node-0',
        label: 'node -e 0',
        argv: ['node', '-e', '0'],
        display: 'node -e 0',
        vs: [],
      },
      // The command line's own start-up, running nothing: what inspect adds is the difference.
      {
        ...base,
        id: 'inspect-version',
        label: 'safe-run --version',
        argv: [SR, '--version'],
        display: 'safe-run --version',
        vs: ['inspect-node-0'],
      },
      {
        ...base,
        id: 'inspect-tree',
        label: 'safe-run inspect',
        argv: [SR, 'inspect', ROOT],
        display: `safe-run inspect PID  (PID: ${shown})`,
        check: wholeTree,
        vs: ['inspect-node-0', 'inspect-version'],
      },
    ],
  };
}
