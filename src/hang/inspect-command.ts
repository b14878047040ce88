import { RequestError } from '../errors.js';
import { inspectPid } from './inspect-pid.js';
import { renderHangReport } from './render-hang.js';

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
  // Linux pids are at most 2^22 (pid_max); a longer number would be rounded into another one.
  if (rest.length !== 1 || !/^[1-9]\d{0,6}$/.test(rest[0]!) || Number(rest[0]) > 4_194_304) {
    const got = rest.length === 0 ? 'no PID' : `"${rest.join(' ')}"`;
    throw new RequestError('inspect.pid', `inspect: expected one process id, got ${got}; ${USAGE}`);
  }
  return { pid: Number(rest[0]), json, mask };
}

// `safe-run inspect PID`: who waits for whom in any process tree on the machine, safe-run's or not.
// It only reads /proc; nothing is signalled.
export function inspectCommand(args: readonly string[], io: InspectIO): number {
  const { pid, json, mask } = parseArgs(args);
  const result = inspectPid(pid, io.env, mask);
  if (!result.available) throw new RequestError(result.code, `inspect: ${result.why}`);
  const { document } = result;
  if (json) io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else {
    const title = `safe-run inspect ${pid}: ${document.processes.length} process(es)`;
    io.stdout.write(renderHangReport(document, title));
  }
  return 0;
}
