import type { RunHandle } from '../engine/run-pipeline.js';
import type { CliIO } from './cli-io.js';
import { closeEarlyInspector, takeEarlySigusr1 } from './early-sigusr1.js';

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

// The signals safe-run receives during a run, forwarded to it as a cancel.
interface RunSignals {
  // Settles with the first signal received, for the waits that must end then.
  stopped: Promise<NodeJS.Signals>;
  received(): number;
  // The run to cancel; a signal that came before it started is passed on now.
  attach(handle: RunHandle): void;
  release(): void;
}

// Handlers go in before any stage starts: a signal that arrives while there is no handler kills
// safe-run outright and leaves the stages to the watchdog, without a report.
export function listenForSignals(io: CliIO): RunSignals {
  let stopWaits: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    stopWaits = resolve;
  });
  let received = 0;
  let handle: RunHandle | null = null;
  let early: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    received += 1;
    stopWaits(signal);
    // A second interrupt means "now": skip the grace period.
    const sent = received > 1 ? 'SIGKILL' : signal;
    if (handle) handle.cancel(sent);
    else early = sent;
  };
  for (const signal of FORWARDED) process.on(signal, onSignal);
  // SIGUSR1: a look at the hang without ending it. One that came before the run could answer it
  // (early-sigusr1.ts) is answered once it can.
  let pending = takeEarlySigusr1() > 0;
  const onUsr1 = () => {
    if (handle) void showHang(handle, io);
    else pending = true;
  };
  process.on('SIGUSR1', onUsr1);
  return {
    stopped,
    received: () => received,
    attach(run) {
      handle = run;
      if (early) run.cancel(early);
      void closeEarlyInspector().then(() => {
        if (takeEarlySigusr1() > 0 || pending) showHangOnceArmed(run, io);
      });
    },
    release() {
      for (const signal of FORWARDED) process.off(signal, onSignal);
      process.off('SIGUSR1', onUsr1);
    },
  };
}

// The stages of a run that was just attached may still be starting: the look is taken once they are,
// however long a loaded machine takes to start them, or said to be empty if the run ends first.
function showHangOnceArmed(handle: RunHandle, io: CliIO): void {
  let ended = false;
  void handle.report.then(
    () => {
      ended = true;
    },
    () => {
      ended = true;
    },
  );
  const look = () => {
    if (handle.inspect() !== null || ended) void showHang(handle, io);
    else setTimeout(look, 20).unref();
  };
  look();
}

async function showHang(handle: RunHandle | null, io: CliIO): Promise<void> {
  const { renderHangReport } = await import('../hang/render-hang.js');
  const report = handle?.inspect();
  const title = `safe-run ${process.pid}: SIGUSR1, who waits for whom now (the run goes on)`;
  io.stderr.write(report ? renderHangReport(report, title) : `${title}: no stage has started yet\n`);
}
