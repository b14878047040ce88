// The benchmarks: four sections, each a set of cases run in the same rounds as the plain shell (or
// node) they are compared with. `vs` names the cases a case's ratios are taken against.
import { bareDisplay, bareShape } from './cost-cases.mjs';
import { formatSize } from './options.mjs';

// A secret-looking variable (name matches TOKEN, value of 6+ characters): safe-run masks its value.
export const SECRET = { API_TOKEN: 'abcdefgh123' };
// Lines that nearly match the secret (its first 10 bytes): the masker's worst case, many candidates.
const NEAR_MISS = 'abcdefgh12';

// Stands for the safe-run being measured in argv; withBin puts in the real path after display is made.
export const SR = 'safe-run';
// Stands for the single-file binary next to the measured dist/ (dist/safe-run).
const BINARY = 'safe-run-binary';

// Run from the repository root (the runner's cwd for every case).
const READER = 'node scripts/bench/stdin-reader.mjs';

const sh = (script) => ['sh', '-c', script];
const bash = (script) => ['bash', '-c', script];
const quote = (argv) => argv.map((a) => (/^[\w./=:,+-]+$/.test(a) ? a : `'${a}'`)).join(' ');

function expectStdout(expected) {
  return (sample) => {
    const got = sample.stdout.trim();
    return got === expected ? null : `stdout was ${JSON.stringify(got.slice(0, 200))}, expected ${expected}`;
  };
}

// The --json report must count every byte of the streams named (stage 1).
function expectReportBytes(bytes, streams) {
  return (sample) => {
    let report;
    try {
      report = JSON.parse(sample.stdout);
    } catch {
      return `stdout was not one JSON report: ${JSON.stringify(sample.stdout.slice(0, 200))}`;
    }
    for (const stream of streams) {
      const got = report.stages?.[0]?.[stream]?.bytes;
      if (got !== bytes) return `report says stage 1 ${stream}.bytes = ${got}, expected ${bytes}`;
    }
    return report.ok === true ? null : `report not ok: ${report.verdict?.reason}`;
  };
}

// A case. display is the command as a user would type it, and what the table shows.
export function make(id, label, argv, rest = {}) {
  const envText = Object.entries(rest.env ?? {})
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  const redirect = [rest.stdout === 'null' ? '> /dev/null' : '', rest.stderr === 'null' ? '2> /dev/null' : '']
    .filter(Boolean)
    .join(' ');
  const display = rest.display ?? `${envText}${quote(argv)}${redirect ? ` ${redirect}` : ''}`;
  return { id, label, argv, stdout: 'capture', stderr: 'capture', vs: [], ...rest, display };
}

export function startupSection() {
  return {
    id: 'startup',
    title: '1. Start-up',
    cases: [
      make('sh-true', 'sh', sh('true')),
      make('node-0', 'node', ['node', '-e', '0'], { vs: ['sh-true'] }),
      // One command's shape with no safe-run code: node, the watchdog sh making two FIFOs, the stage.
      make('bare-start', 'bare shape', bareShape('start', ''), {
        display: bareDisplay('start', ''),
        vs: ['node-0'],
      }),
      // The same with the stage started inside a cgroup, as safe-run starts it where it can make one.
      make('bare-start-cgroup', 'bare shape + cgroup', bareShape('start-cgroup', ''), {
        display: bareDisplay('start-cgroup', ''),
        vs: ['node-0', 'bare-start'],
      }),
      make('sr-version', 'safe-run --version', [SR, '--version'], { vs: ['node-0'] }),
      make('sr-true', 'safe-run', [SR, '-q', '--', 'true'], {
        vs: ['sh-true', 'node-0', 'bare-start', 'bare-start-cgroup'],
      }),
      make('sr-pipe', 'safe-run 2 stages', [SR, '-q', '-c', 'printf x | wc -c'], {
        check: expectStdout('1'),
        vs: ['node-0'],
      }),
      // The single-file binary (npm run build:binary), when dist/ has one; withBin drops it otherwise.
      make('bin-version', 'binary --version', [BINARY, '--version'], { vs: ['node-0'] }),
      make('bin-true', 'binary', [BINARY, '-q', '--', 'true'], { vs: ['node-0'] }),
    ],
  };
}

export function pipeSection(n) {
  const script = `head -c ${n} /dev/zero | wc -c`;
  const check = expectStdout(String(n));
  return {
    id: 'pipe',
    title: `2. Throughput through the kernel pipes (${formatSize(n)})`,
    cases: [
      make('pipe-bash', 'bash', bash(script), { check, bytes: n }),
      make('pipe-sr', 'safe-run', [SR, '-q', '-c', script], { check, bytes: n, vs: ['pipe-bash'] }),
    ],
  };
}

export function dataSection(n) {
  const out = ['head', '-c', String(n), '/dev/zero'];
  const err = sh(`head -c ${n} /dev/zero >&2`);
  const text = sh(`yes ${NEAR_MISS} | head -c ${n}`);
  const stdoutCounted = expectReportBytes(n, ['stdout']);
  const common = { bytes: n };
  return {
    id: 'data',
    title: `3. Throughput of what safe-run reads itself (${formatSize(n)})`,
    cases: [
      make('bash-out', 'bash >null', bash(`head -c ${n} /dev/zero > /dev/null`), common),
      make('bash-cat', 'bash |cat', bash(`head -c ${n} /dev/zero | cat > /dev/null`), {
        ...common,
        vs: ['bash-out'],
      }),
      make('node-read', 'bash |node', bash(`head -c ${n} /dev/zero | ${READER} alloc`), {
        ...common,
        check: expectStdout(String(n)),
        vs: ['bash-out', 'bash-cat'],
      }),
      make('node-reuse', 'bash |node reuse', bash(`head -c ${n} /dev/zero | ${READER} reuse`), {
        ...common,
        check: expectStdout(String(n)),
        vs: ['bash-cat', 'node-read'],
      }),
      make('json-out', 'json stdout', [SR, '--json', '--', ...out], {
        ...common,
        check: stdoutCounted,
        vs: ['bash-out', 'bash-cat', 'node-read'],
      }),
      make('json-mask', 'json stdout+secret', [SR, '--json', '--', ...out], {
        ...common,
        env: SECRET,
        check: stdoutCounted,
        vs: ['bash-out', 'json-out'],
      }),
      make('bash-err', 'bash >&2', bash(`head -c ${n} /dev/zero >&2`), { ...common, stderr: 'null' }),
      make('json-err', 'json stderr', [SR, '--json', '--', ...err], {
        ...common,
        check: expectReportBytes(n, ['stderr']),
        vs: ['bash-err', 'json-out'],
      }),
      make('live-out', 'live stdout', [SR, '-q', '--', ...out], {
        ...common,
        stdout: 'null',
        vs: ['bash-out', 'bash-cat', 'node-read'],
      }),
      make('live-mask', 'live stdout+secret', [SR, '-q', '--', ...out], {
        ...common,
        env: SECRET,
        stdout: 'null',
        vs: ['bash-out', 'live-out'],
      }),
      make('live-err', 'live stderr', [SR, '-q', '--', ...err], {
        ...common,
        stderr: 'null',
        vs: ['bash-err', 'live-out'],
      }),
      make('bash-text', 'bash text', bash(`yes ${NEAR_MISS} | head -c ${n} > /dev/null`), common),
      make('live-text', 'live text', [SR, '-q', '--', ...text], {
        ...common,
        stdout: 'null',
        vs: ['bash-text'],
      }),
      make('live-text-mask', 'live text+secret', [SR, '-q', '--', ...text], {
        ...common,
        env: SECRET,
        stdout: 'null',
        vs: ['bash-text', 'live-text'],
      }),
    ],
  };
}

export function rssSection(sizes) {
  const cases = [
    make('rss-node', 'node -e 0', ['node', '-e', '0']),
    make('rss-idle', 'safe-run idle', [SR, '-q', '--', 'true'], { vs: ['rss-node'] }),
  ];
  for (const n of sizes) {
    const both = sh(`head -c ${n} /dev/zero; head -c ${n} /dev/zero >&2`);
    const size = formatSize(n).replace(' ', '');
    cases.push(
      make(`rss-json-${n}`, `json ${size}`, [SR, '--json', '--', ...both], {
        check: expectReportBytes(n, ['stdout', 'stderr']),
        bytes: 2 * n,
        vs: ['rss-node'],
      }),
      make(`rss-live-${n}`, `live ${size}`, [SR, '-q', '--', ...both], {
        stdout: 'null',
        stderr: 'null',
        bytes: 2 * n,
        vs: ['rss-node'],
      }),
      make(`rss-alloc-${n}`, `node reader ${size}`, bash(`head -c ${n} /dev/zero | ${READER} alloc`), {
        check: expectStdout(String(n)),
        bytes: n,
        vs: ['rss-node'],
      }),
      make(`rss-reuse-${n}`, `node reader reuse ${size}`, bash(`head -c ${n} /dev/zero | ${READER} reuse`), {
        check: expectStdout(String(n)),
        bytes: n,
        vs: ['rss-node'],
      }),
    );
  }
  return { id: 'rss', title: '4. Peak RSS (stage writes N to stdout and N to stderr)', cases };
}

// The section with every "safe-run" word of a case's argv replaced by the executable to run (the
// table keeps "safe-run"): argv[0] mostly, a shell line's word in section ci. The binary's cases are
// pointed at `binary`, or left out when there is none.
export function withBin(section, bin, binary = null) {
  const swap = (arg) => (arg === SR ? bin : arg === BINARY ? binary : arg);
  const cases = section.cases
    .filter((kase) => !kase.argv.includes(BINARY) || binary !== null)
    .map((kase) => ({ ...kase, argv: kase.argv.map(swap) }));
  return { ...section, cases };
}
