import type { CmdSubst, Redirect } from '../syntax/nodes.js';
import type { Bytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';
import { endingStatus } from './exit-trap.js';
import { CaptureSink } from './fds.js';
import { inputOf, readRecord } from './read-bytes.js';
import { ExitSignal } from './signals.js';
import { noteWaitStop } from './stops.js';
import { waitStop } from './wait-stop.js';

// $( ... ) and `...`: the list runs in a subshell whose stdout is collected; its status becomes the
// status of a command made only of assignments (`x=$(false)` gives $? 1). errexit is not inherited,
// as in bash outside POSIX mode (unless shopt -s inherit_errexit).
export async function substitute(r: RunnerApi, part: CmdSubst): Promise<Bytes> {
  const sink = new CaptureSink();
  const fds = r.sh.fds.copy();
  fds.set(1, { kind: 'capture', sink });
  const { collect } = r.place;
  const sub = r.subshell(fds, collect ? { collect: (part) => collect({ ...part, substitution: true }) } : {});
  sub.sh.seeJobsOf(r.sh);
  sub.sh.substBase = r.sh.lineno - 1;
  sub.sh.traceDepth++;
  sub.sh.exitTrapDeeper = false;
  sub.sh.exitTrapStatus = r.sh.exitTrapStatus;
  if (!r.sh.shopts.has('inherit_errexit')) sub.sh.setOption('errexit', false);
  let status: number;
  const file = fileOnly(part);
  try {
    status = await endingStatus(() => (file ? readFile(sub, file, sink) : sub.list(part.stmts)));
    // Its EXIT trap runs as it ends, into what it printed (an exit there gives the status).
    sub.sh.status = status;
    status = await endingStatus(async () => {
      await sub.runExitTrap();
      return status;
    });
  } finally {
    sub.sh.fds.release();
  }
  r.sh.substStatus = status;
  r.sh.status = status;
  return sink.text();
}

// $(< FILE) (and `< FILE`): bash reads the file itself, no command runs.
function fileOnly(part: CmdSubst): Redirect | null {
  const [stmt, ...more] = part.stmts;
  if (!stmt || more.length > 0 || stmt.background || stmt.body.rest.length > 0) return null;
  const { first } = stmt.body;
  const command = first.commands.length === 1 && !first.bang && !first.time ? first.commands[0]! : null;
  if (command?.kind !== 'simple' || command.words.length > 0 || command.assigns.length > 0) return null;
  const [redirect, ...others] = command.redirects;
  if (!redirect || others.length > 0 || redirect.op !== '<' || (redirect.fd ?? 0) !== 0) return null;
  return redirect;
}

// The file's bytes, as the redirection opens it (a failure is said as bash says it: status 1).
function readFile(sub: RunnerApi, redirect: Redirect, sink: CaptureSink): Promise<number> {
  return sub.withRedirects([redirect], async () => {
    const input = inputOf(sub.rt, sub.sh.fds.get(0));
    if (input.fd === null) return 0;
    const record = await readRecord(input.fd, () => false, waitStop(sub));
    sink.append(record.bytes);
    if (!record.halted) return 0;
    // (A writer that holds the FIFO open and writes nothing: the time limit ends the wait.)
    noteWaitStop(sub.rt, record.halted);
    throw new ExitSignal(1, 'stopped');
  });
}
