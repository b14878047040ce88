import { maskHangReport } from '../engine/report/mask-report.js';
import { RequestError } from '../errors.js';
import { hasProc } from '../teardown/proc-scan.js';
import { buildHangReport } from './hang-report.js';
import { findTree, readLinks, readTree } from './read-tree.js';
import { renderHangReport } from './render-hang.js';
import { treeSecrets } from './tree-secrets.js';

interface InspectIO {
  stdout: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const USAGE = 'usage: safe-run inspect PID [--json] [--mask NAME]...';

interface InspectArgs {
  pid: number;
  json: boolean;
  // Variables whose values are masked besides the secret-looking ones (as `safe-run --mask`).
  mask: string[];
}

function parseArgs(args: readonly string[]): InspectArgs {
  const rest: string[] = [];
  const mask: string[] = [];
  let json = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--mask' && args[i + 1] !== undefined) mask.push(args[++i]!);
    else if (arg.startsWith('--mask=')) mask.push(arg.slice('--mask='.length));
    else rest.push(arg);
  }
  const bad = rest.find((arg) => arg.startsWith('-'));
  if (bad) throw new RequestError('inspect.option', `inspect: unknown option ${bad}; ${USAGE}`);
  if (rest.length !== 1 || !/^[1-9]\d*$/.test(rest[0]!)) {
    const got = rest.length === 0 ? 'no PID' : `"${rest.join(' ')}"`;
    throw new RequestError('inspect.pid', `inspect: expected one process id, got ${got}; ${USAGE}`);
  }
  return { pid: Number(rest[0]), json, mask };
}

// `safe-run inspect PID`: who waits for whom in any process tree on the machine, safe-run's or not.
// It only reads /proc; nothing is signalled.
export function inspectCommand(args: readonly string[], io: InspectIO): number {
  const { pid, json, mask } = parseArgs(args);
  if (!hasProc()) {
    throw new RequestError('inspect.noProc', 'inspect: needs /proc (Linux); on this system use ps and lsof');
  }
  const all = readLinks();
  if (!all.some((info) => info.pid === pid)) {
    throw new RequestError(
      'inspect.noProcess',
      `inspect: no process ${pid} (it may have exited); find it with: ps -ef`,
    );
  }
  const members = new Map(findTree(pid, all).map((member) => [member, null]));
  const tree = readTree(members, null);
  const pids = [...tree.members, ...tree.context].map((view) => view.pid);
  const report = maskHangReport(buildHangReport(tree), treeSecrets(pids, io.env, mask));
  if (json) {
    const document = { root: pid, takenAt: new Date().toISOString(), ...report };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    io.stdout.write(
      renderHangReport(report, `safe-run inspect ${pid}: ${report.processes.length} process(es)`),
    );
  }
  return 0;
}
