import type { RunnerApi } from './api.js';
import { writeTo } from './output.js';

// BASH_XTRACEFD, as bash follows it: assigned a number of a descriptor open then, set -x writes its
// trace there (to whatever that descriptor is when a line is traced); another value is said to be
// invalid and changes nothing; unset or empty, the trace goes back to stderr and that descriptor is
// closed (bash closes it, 2 included). A trace descriptor closed meanwhile is stderr again for good.
export function watchXtraceFd(r: RunnerApi): void {
  r.sh.vars.changed = (name) => {
    if (name === 'BASH_XTRACEFD') void xtraceFdChanged(r);
  };
}

async function xtraceFdChanged(r: RunnerApi): Promise<void> {
  const { sh } = r;
  const variable = sh.vars.get('BASH_XTRACEFD');
  const value = variable?.value?.kind === 'scalar' ? variable.value.value : '';
  if (value === '') {
    if (sh.xtraceFd !== null) sh.fds.set(sh.xtraceFd, { kind: 'closed' });
    sh.xtraceFd = null;
    return;
  }
  const fd = /^\s*[-+]?\d+$/.test(value) ? Number(value) : -1;
  if (fd >= 0 && sh.fds.get(fd).kind !== 'closed') {
    sh.xtraceFd = fd;
    return;
  }
  const message = `BASH_XTRACEFD: ${value}: invalid value for trace file descriptor`;
  await writeTo(r.rt, sh.fds.get(2), `${sh.arg0}: ${message}\n`);
}

// The descriptor set -x writes to now.
export function xtraceTarget(r: RunnerApi): number {
  const { sh } = r;
  if (sh.xtraceFd !== null && sh.fds.get(sh.xtraceFd).kind === 'closed') sh.xtraceFd = null;
  return sh.xtraceFd ?? 2;
}
