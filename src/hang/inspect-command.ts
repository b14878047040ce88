import { RequestError } from '../errors.js';
import { inspectPid } from './inspect-pid.js';
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
  const result = inspectPid(pid);
  if (!result.available) throw new RequestError(result.code, `inspect: ${result.why}`);
  const { document } = result;
  if (json) io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else {
    const title = `safe-run inspect ${pid}: ${document.processes.length} process(es)`;
    io.stdout.write(renderHangReport(document, title));
  }
  return 0;
}
