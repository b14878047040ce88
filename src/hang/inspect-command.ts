import { RequestError } from '../errors.js';
import { hasProc } from '../teardown/proc-scan.js';
import { buildHangReport } from './hang-report.js';
import { findTree, readLinks, readTree } from './read-tree.js';
import { renderHangReport } from './render-hang.js';

interface InspectIO {
  stdout: NodeJS.WritableStream;
}

const USAGE = 'usage: safe-run inspect PID [--json]';

function parseArgs(args: readonly string[]): { pid: number; json: boolean } {
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  const bad = rest.find((arg) => arg.startsWith('-'));
  if (bad) throw new RequestError('inspect.option', `inspect: unknown option ${bad}; ${USAGE}`);
  if (rest.length !== 1 || !/^[1-9]\d*$/.test(rest[0]!)) {
    const got = rest.length === 0 ? 'no PID' : `"${rest.join(' ')}"`;
    throw new RequestError('inspect.pid', `inspect: expected one process id, got ${got}; ${USAGE}`);
  }
  return { pid: Number(rest[0]), json };
}

// `safe-run inspect PID`: who waits for whom in any process tree on the machine, safe-run's or not.
// It only reads /proc; nothing is signalled.
export function inspectCommand(args: readonly string[], io: InspectIO): number {
  const { pid, json } = parseArgs(args);
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
  const report = buildHangReport(readTree(members, null));
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
