import type { Leftover } from '../types.js';
import type { Terminated } from './kill-tree.js';
import type { ProcInfo } from './proc-read.js';
import { stillThere } from './send-signal.js';

interface Entry {
  info: ProcInfo;
  stage: string | null;
  how: string;
  // 'signalled': sent a signal, fate not yet seen; 'gone' and 'there': seen after the signals.
  fate: 'signalled' | 'gone' | 'there' | 'kept';
}

// The one record of the processes a run left behind, one entry per process, told in the order they
// were met. A process is called killed only once it was seen gone.
export class LeftoverLog {
  private readonly entries = new Map<number, Entry>();

  has(pid: number): boolean {
    return this.entries.has(pid);
  }

  // Safe-run signalled it; whether it went is looked at when the log is read.
  signalled(info: ProcInfo, stage: string | null, how: string): void {
    this.add(info, stage, how, 'signalled');
  }

  // The processes the supervisor sent a signal to (at a stop, the ones that left their stage), so that
  // the sweep at the end of the run sends them no second SIGTERM: only SIGKILL once the grace is over.
  signalledSoFar(): ProcInfo[] {
    return [...this.entries.values()]
      .filter((entry) => entry.fate === 'signalled')
      .map((entry) => entry.info);
  }

  // Left running on purpose (--leftovers keep).
  kept(info: ProcInfo, stage: string | null, how: string): void {
    this.add(info, stage, how, 'kept');
  }

  // What the kill primitive saw: gone after its signals, or still there after SIGKILL.
  terminated(info: Terminated, stage: string | null, how: string): void {
    this.add(info, stage, how, info.survived ? 'there' : 'gone');
  }

  // More about a process already in the log; a process not in it yet is added as signalled.
  tell(info: ProcInfo, stage: string | null, how: string): void {
    const known = this.entries.get(info.pid);
    if (known) known.how = `${known.how}; ${how}`;
    else this.add(info, stage, how, 'signalled');
  }

  // The leftovers for the report. A signalled process is looked at now: gone is killed, still there
  // is said so and counted as kept.
  list(): Leftover[] {
    return [...this.entries.values()].map((entry) => {
      const fate = entry.fate === 'signalled' ? (stillThere(entry.info) ? 'there' : 'gone') : entry.fate;
      const how = fate === 'there' ? `${entry.how}; still running when safe-run ended` : entry.how;
      const { pid, command } = entry.info;
      return { pid, command, stage: entry.stage, how, action: fate === 'gone' ? 'killed' : 'kept' };
    });
  }

  private add(info: ProcInfo, stage: string | null, how: string, fate: Entry['fate']): void {
    if (!this.entries.has(info.pid)) this.entries.set(info.pid, { info, stage, how, fate });
  }
}
