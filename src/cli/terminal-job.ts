import { fstatSync, readFileSync } from 'node:fs';

// A stage runs in a session of its own, so the terminal is not its controlling terminal and the
// kernel never stops it with SIGTTIN: started in the background (`safe-run -- cat &`) with stdin
// from the terminal, it would read what is typed at the shell. True when that is the situation:
// stdin is safe-run's controlling terminal and safe-run's group is not the terminal's foreground group
// (/proc/self/stat: pgrp, tty_nr, tpgid).
export function isBackgroundOnTerminal(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [pgrp, ttyNr, tpgid] = [fields[2], fields[4], fields[5]].map(Number) as [number, number, number];
    const stdin = fstatSync(0);
    return stdin.isCharacterDevice() && stdin.rdev === ttyNr && tpgid > 0 && tpgid !== pgrp;
  } catch {
    return false;
  }
}

export const BACKGROUND_WARNING =
  'safe-run: warning: started in the background with stdin from the terminal: a stage that reads it takes what you type at the shell (it has no controlling terminal, so it does not stop on SIGTTIN); give it stdin: --stdin null, --stdin FILE or < FILE\n';
