import fs from 'node:fs';
import { monotonicMs } from '../../monotonic-ms.js';
import { scalarOf } from '../expand/variable.js';
import type { Pipeline } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { writeTo } from './output.js';

// `time PIPELINE` (and `time -p`): the pipeline runs, then bash's report of its times goes to the
// shell's stderr, formatted by TIMEFORMAT. Real time is the pipeline's; user and system time are
// safe-run's own (it is the shell) and its ended children's, as the kernel counts them.
const DEFAULT_FORMAT = '\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS';
const POSIX_FORMAT = 'real %2R\nuser %2U\nsys %2S';

interface Times {
  real: number;
  user: number;
  sys: number;
}

export async function timed(r: RunnerApi, pipeline: Pipeline, run: () => Promise<number>): Promise<number> {
  if (!pipeline.time) return run();
  const start = now();
  try {
    return await run();
  } finally {
    const end = now();
    const times = { real: end.real - start.real, user: end.user - start.user, sys: end.sys - start.sys };
    const format = pipeline.timePosix ? POSIX_FORMAT : timeFormat(r);
    if (format !== '') await writeTo(r.rt, r.sh.fds.get(2), `${formatTimes(format, times)}\n`);
  }
}

function timeFormat(r: RunnerApi): string {
  const variable = r.sh.vars.get('TIMEFORMAT');
  return variable === undefined ? DEFAULT_FORMAT : (scalarOf(variable) ?? DEFAULT_FORMAT);
}

// Seconds: real, and CPU (this process and the children it has waited for).
function now(): Times {
  const own = process.cpuUsage();
  const children = childTimes();
  return {
    real: monotonicMs() / 1000,
    user: own.user / 1e6 + children.user,
    sys: own.system / 1e6 + children.sys,
  };
}

// cutime and cstime of /proc/self/stat, in clock ticks (100 a second on Linux).
function childTimes(): { user: number; sys: number } {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[13]) / 100, sys: Number(fields[14]) / 100 };
  } catch {
    return { user: 0, sys: 0 };
  }
}

// TIMEFORMAT: %[p][l]R, U, S (p decimals, 0 to 3; l as MmS.FFs), %P the CPU share, %% a percent sign.
function formatTimes(format: string, times: Times): string {
  return format.replace(/%(%|P|([0-9]?)(l?)([RUS]))/g, (whole, what, digits, long, letter) => {
    if (what === '%') return '%';
    if (what === 'P') return ((100 * (times.user + times.sys)) / Math.max(times.real, 1e-9)).toFixed(2);
    if (letter === undefined) return whole;
    const value = letter === 'R' ? times.real : letter === 'U' ? times.user : times.sys;
    const places = digits === '' ? 3 : Math.min(Number(digits), 3);
    if (long !== 'l') return cut(value, places);
    const minutes = Math.floor(value / 60);
    return `${minutes}m${cut(value - minutes * 60, places)}s`;
  });
}

// bash cuts the decimals it does not show, it does not round them.
function cut(seconds: number, places: number): string {
  const scaled = Math.floor(Math.max(seconds, 0) * 10 ** places) / 10 ** places;
  return scaled.toFixed(places);
}
