import { hasProc } from '../teardown/proc-read.js';
import type { HangReport } from './hang-report.js';
import { maskHangReport } from './mask-hang.js';
import { findTree, readTree } from './read-tree.js';
import { settledReport } from './settle.js';
import { treeSecrets } from './tree-secrets.js';

// What `safe-run inspect PID --json` prints and the MCP `inspect` tool returns: the hang report of
// the tree under one process, and when it was read.
interface InspectDocument extends HangReport {
  root: number;
  takenAt: string;
}

type InspectResult =
  | { available: true; document: InspectDocument }
  | { available: false; code: 'inspect.no-proc' | 'inspect.no-process'; why: string };

// Who waits for whom in the tree under `pid`, safe-run's or not. It only reads /proc; nothing is
// signalled. A missing /proc or process is a result, not an exception: each front end says it its way.
// What it shows is masked: secret-looking values of `env` and of every shown process's environment,
// and the values of the `mask` names.
export function inspectPid(
  pid: number,
  env: NodeJS.ProcessEnv = process.env,
  mask: string[] = [],
): InspectResult {
  if (!hasProc()) {
    return {
      available: false,
      code: 'inspect.no-proc',
      why: 'needs /proc (Linux); on this system use ps and lsof',
    };
  }
  const tree = findTree(pid);
  if (tree.length === 0) {
    return {
      available: false,
      code: 'inspect.no-process',
      why: `no process ${pid} (it may have exited); find it with: ps -ef`,
    };
  }
  const data = readTree(new Map(tree.map((member) => [member, null])), null);
  const pids = [...data.members, ...data.context].map((view) => view.pid);
  const report = maskHangReport(settledReport(data).report, treeSecrets(pids, env, mask));
  return { available: true, document: { root: pid, takenAt: new Date().toISOString(), ...report } };
}
