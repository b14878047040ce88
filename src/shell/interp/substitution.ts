import type { CmdSubst, ProcSubst } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { CaptureSink } from './fds.js';
import { ExitSignal } from './signals.js';

// $( ... ) and `...`: the list runs in a subshell whose stdout is collected; its status becomes the
// status of a command made only of assignments (`x=$(false)` gives $? 1). errexit is not inherited,
// as in bash outside POSIX mode (unless shopt -s inherit_errexit).
export async function substitute(r: RunnerApi, part: CmdSubst): Promise<Bytes> {
  const sink = new CaptureSink();
  const fds = r.sh.fds.copy();
  fds.set(1, { kind: 'capture', sink });
  const sub = r.subshell(fds);
  sub.sh.seeJobsOf(r.sh);
  if (!r.sh.shopts.has('inherit_errexit')) sub.sh.setOption('errexit', false);
  let status: number;
  try {
    status = await sub.list(part.stmts);
  } catch (error) {
    if (!(error instanceof ExitSignal)) throw error;
    if (error.why === 'stopped') throw error;
    status = error.status;
  } finally {
    sub.sh.fds.release();
  }
  r.sh.substStatus = status;
  r.sh.status = status;
  return sink.text();
}

export async function processSubstitute(r: RunnerApi, part: ProcSubst): Promise<Bytes> {
  await r.error(`process substitution ${part.op}( ... ) is not supported here`);
  throw new ExitSignal(1, 'error');
}
