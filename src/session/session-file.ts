import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RequestError } from '../errors.js';
import type { Plan, Report } from '../types.js';
import {
  clearStateFiles,
  isCarried,
  readStateFiles,
  type ShellState,
  type StateFiles,
  stateFilesIn,
  trapFallback,
  withoutTrap,
} from './state-files.js';

// `--session FILE`: what a harness that starts one safe-run per command keeps between them, as the MCP
// session does within one process: the directory the last -c text ended in, and the variables it
// exported, changed or unset, as changes over the environment safe-run starts with (so that the
// harness's own environment still counts). The file is JSON, written whole (a temporary file renamed)
// with mode 0600: exported values may be secrets.
interface SessionDocument {
  version: 1;
  cwd: string;
  set: Record<string, string>;
  unset: string[];
}

export interface SessionRun {
  file: string;
  // What the text starts from, without the session (the diff is taken against it).
  baseline: Record<string, string>;
  // Where the bash fallback's EXIT trap leaves its state.
  stateFiles: StateFiles;
  dir: string;
}

function refuse(file: string, why: string): never {
  throw new RequestError('usage.session', `--session ${file}: ${why}`);
}

function readDocument(file: string): SessionDocument | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return refuse(file, `cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
  let value: Partial<SessionDocument>;
  try {
    value = JSON.parse(text) as Partial<SessionDocument>;
  } catch {
    return refuse(file, 'is not a session file (not JSON); remove it to start a new session');
  }
  const strings = (v: unknown) =>
    typeof v === 'object' && v !== null && Object.values(v).every((x) => typeof x === 'string');
  if (
    value.version !== 1 ||
    typeof value.cwd !== 'string' ||
    !strings(value.set) ||
    !Array.isArray(value.unset)
  ) {
    return refuse(
      file,
      'is not a session file of this safe-run (version 1: cwd, set, unset); remove it to start a new session',
    );
  }
  return value as SessionDocument;
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

// Starts the -c text of `plan` where the session left off (the directory unless --cwd says otherwise,
// the variables), with the EXIT trap that tells a bash fallback's end state. Throws RequestError for
// another kind of input or a file that is not a session.
export function openSession(file: string, plan: Plan, env: NodeJS.ProcessEnv): SessionRun {
  if (file === '') throw new RequestError('usage.session', '--session: empty; name a file');
  if (!plan.shell && !plan.fallback) refuse(file, 'applies to -c text only');
  // A bash stage of its own (text refused before it ran) carries the agent variables on the stage.
  const baseline = plan.env ?? { ...definedOnly(env), ...plan.stages[0]?.env };
  const document = readDocument(file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-session-'));
  const stateFiles = stateFilesIn(dir);
  const run: SessionRun = { file: path.resolve(file), baseline, stateFiles, dir };
  if (document) {
    const sessionEnv = { ...baseline, ...document.set };
    for (const name of document.unset) delete sessionEnv[name];
    plan.env = sessionEnv;
    if (plan.cwd === undefined) plan.cwd = document.cwd;
    plan.stages = plan.stages.map((stage) => ({ ...stage, cwd: stage.cwd ?? document.cwd }));
  }
  trapFallback(plan, stateFiles);
  clearStateFiles(stateFiles);
  return run;
}

// After the run: the state it ended in (the front end's own, or the bash fallback's trap), written to
// the session file; the report shows the text as written. A fallback that left no state (its trap
// replaced, bash killed) leaves the file as it was.
export async function closeSession(
  run: SessionRun,
  report: Report,
  shell: ShellState | null,
): Promise<Report> {
  try {
    const after = report.fallback ? readStateFiles(run.stateFiles) : shell;
    if (after) writeDocument(run, after);
  } finally {
    fs.rmSync(run.dir, { recursive: true, force: true });
  }
  return withoutTrap(report);
}

function writeDocument(run: SessionRun, after: ShellState): void {
  const set: Record<string, string> = {};
  // SHLVL, PWD and the like are the shell's own: each call starts from the harness's (bash -c would
  // count SHLVL up from the same parent every time), so a change to them is not carried.
  for (const [name, value] of Object.entries(after.env)) {
    if (isCarried(name) && run.baseline[name] !== value) set[name] = value;
  }
  const unset = Object.keys(run.baseline).filter((name) => isCarried(name) && !(name in after.env));
  const document: SessionDocument = { version: 1, cwd: after.cwd, set, unset };
  const temporary = `${run.file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, run.file);
}
