import fs from 'node:fs';
import path from 'node:path';
import { quoteForBash } from '../shell/bash-path.js';
import { fallbackTextAt } from '../shell/fallback-plan.js';
import { MARKER_NAME } from '../teardown/marker.js';
import type { Plan, Report, StageSpec } from '../types.js';

// What one agent session carries from one command to the next, as an agent's own shell does: the
// directory and the whole exported environment. Shell-only variables are not carried (issue 11:
// nothing else leaks between calls), so `vars` is empty between calls.
export interface ShellState {
  cwd: string;
  env: Record<string, string>;
  vars: Record<string, string>;
}

// Set anew for every command by bash or by safe-run: keeping them would make them grow or go stale.
const NOT_CARRIED = new Set(['SHLVL', '_', 'PWD', MARKER_NAME]);

// Whether a variable is carried from one command to the next at all.
export function isCarried(name: string): boolean {
  return !NOT_CARRIED.has(name);
}

// The bash fallback (text the shell front end does not interpret) writes its final directory and
// environment here through an EXIT trap, so the next call starts where this one ended. The files
// live in a private directory of the session. The shell front end needs none of this: it keeps the
// state itself.
export interface StateFiles {
  cwd: string;
  env: string;
}

export function stateFilesIn(dir: string): StateFiles {
  return { cwd: path.join(dir, 'cwd'), env: path.join(dir, 'env') };
}

export function clearStateFiles(files: StateFiles): void {
  fs.rmSync(files.cwd, { force: true });
  fs.rmSync(files.env, { force: true });
}

// The first line of the fallback script: on any exit (the end, `exit N`, a fatal signal) bash writes
// $PWD and its exported environment (NUL-separated) to the state files. The exit status is kept.
export function stateTrap(files: StateFiles): string {
  const body = `builtin printf '%s' "$PWD" > ${quoteForBash(files.cwd)}; command -p env -0 > ${quoteForBash(files.env)}`;
  return `trap ${quoteForBash(body)} EXIT`;
}

// The state the fallback left, or null when it left none (the command replaced the EXIT trap or
// bash was killed with SIGKILL): then the session keeps the state it had.
export function readStateFiles(files: StateFiles): ShellState | null {
  let cwd: string;
  let dump: string;
  try {
    cwd = fs.readFileSync(files.cwd, 'utf8');
    dump = fs.readFileSync(files.env, 'utf8');
  } catch {
    return null;
  }
  if (cwd.length === 0) return null;
  const env: Record<string, string> = {};
  for (const entry of dump.split('\0')) {
    const at = entry.indexOf('=');
    if (at <= 0) continue;
    const name = entry.slice(0, at);
    const value = entry.slice(at + 1);
    if (NOT_CARRIED.has(name)) continue;
    env[name] = value;
  }
  return { cwd, env, vars: {} };
}

// The bash stage of a fallback plan (the text handed to bash before it ran) with the EXIT trap before
// the text, so that the directory and variables bash ended with are known after it: the MCP session's
// next call and `--session FILE` start there.
export function trapFallback(plan: Plan, files: StateFiles): void {
  if (!plan.fallback) return;
  const trapped = (stage: StageSpec): StageSpec => ({
    ...stage,
    argv: atText(stage.argv, (text) => `${stateTrap(files)}\n${text}`),
  });
  plan.stages = plan.stages.map(trapped);
}

// The argv with its text (after -c; a script's $0 and arguments may follow) changed by `change`.
function atText(argv: readonly string[], change: (text: string) => string): string[] {
  const at = fallbackTextAt(argv);
  return argv.map((word, i) => (i === at ? change(word) : word));
}

// The report shows the text as the caller wrote it (masked as the report is), not the trap line
// safe-run put before it.
export function withoutTrap(report: Report): Report {
  if (!report.fallback) return report;
  const strip = (shown: string) => shown.slice(shown.indexOf('\n') + 1);
  const stages = report.stages.map((stage) => ({ ...stage, argv: atText(stage.argv, strip) }));
  const steps = report.steps?.map((step) => ({ ...step, text: strip(step.text) }));
  return { ...report, stages, ...(steps ? { steps } : {}) };
}
