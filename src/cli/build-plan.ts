import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../defaults.js';
import { RequestError } from '../errors.js';
import { defaultLedgerPath } from '../facts/ledger.js';
import { assignStageNames } from '../inputs/stage-names.js';
import { parseDuration, parseSize } from '../inputs/units.js';
import { fallbackStages, parseText, writtenStages } from '../shell/plan-shell.js';
import type { OnLimit, Plan, Settings, StageSpec } from '../types.js';
import type { CliOptions } from './options.js';

export interface SpecInput {
  stages: StageSpec[];
  settings: Partial<Settings>;
}

function stagesFromArgv(argv: string[]): StageSpec[] {
  const [name] = assignStageNames([argv[0]!]);
  return [{ ...blankStage(), name: name!, argv }];
}

export function blankStage(): Omit<StageSpec, 'name' | 'argv'> {
  return {
    env: {},
    cwd: null,
    okCodes: [0],
    optional: false,
    timeoutMs: null,
    maxStdout: null,
    maxStderr: null,
  };
}

// -c text: the steps safe-run interprets (stages are made per step at run time), or, under
// --fallback bash, one bash stage when the text has a construct safe-run does not interpret.
function planInline(
  text: string,
  options: CliOptions,
  policy: Settings['policy'],
): Pick<Plan, 'stages' | 'shell' | 'fallback'> {
  const parsed = parseText(text, options.fallback === 'bash' ? 'bash' : null);
  if (parsed.fallback) return { stages: fallbackStages(text, policy, blankStage), fallback: parsed.fallback };
  const stages = writtenStages(parsed.script!, blankStage);
  parseOkCodes(options.okCodes ?? [], stages);
  return { stages: [], shell: { script: parsed.script!, okCodes: stages.map((stage) => stage.okCodes) } };
}

function parseOkCodes(entries: string[], stages: StageSpec[]): void {
  for (const entry of entries) {
    const match = /^([^=]+)=(\d{1,3}(?:,\d{1,3})*)$/.exec(entry);
    if (!match) {
      throw new RequestError(
        'usage.ok-codes',
        `--ok-codes ${entry}: expected STAGE=CODES, e.g. grep=0,1 or 2=0,1 (STAGE: a name or a 1-based index)`,
      );
    }
    const key = match[1]!;
    const index = /^\d+$/.test(key) ? Number(key) - 1 : stages.findIndex((stage) => stage.name === key);
    const stage = stages[index];
    if (!stage) {
      const names = stages.map((s, i) => `${i + 1}=${s.name}`).join(', ');
      throw new RequestError('usage.ok-codes', `--ok-codes ${entry}: no stage "${key}" (stages: ${names})`);
    }
    const codes = match[2]!.split(',').map(Number);
    const bad = codes.find((code) => code > 255);
    if (bad !== undefined)
      throw new RequestError('usage.ok-codes', `--ok-codes ${entry}: ${bad} is not an exit code (0-255)`);
    stage.okCodes = codes;
  }
}

function settingsFromFlags(options: CliOptions, env: NodeJS.ProcessEnv): Partial<Settings> {
  const out: Partial<Settings> = {};
  if (options.policy) out.policy = options.policy as Settings['policy'];
  if (options.sigpipe) out.sigpipe = options.sigpipe as Settings['sigpipe'];
  if (options.stdin !== undefined) {
    out.stdin =
      options.stdin === 'inherit' || options.stdin === 'null'
        ? { kind: options.stdin }
        : { kind: 'file', path: path.resolve(options.stdin) };
  }
  if (options.timeout) out.timeoutMs = parseDuration(options.timeout, '--timeout');
  if (options.idleTimeout) out.idleTimeoutMs = parseDuration(options.idleTimeout, '--idle-timeout');
  if (options.killAfter) out.killAfterMs = parseDuration(options.killAfter, '--kill-after');
  if (options.drainTimeout) out.drainTimeoutMs = parseDuration(options.drainTimeout, '--drain-timeout');
  if (options.maxStdout) out.maxStdout = parseSize(options.maxStdout, '--max-stdout');
  if (options.maxStderr) out.maxStderr = parseSize(options.maxStderr, '--max-stderr');
  if (options.maxLog) out.maxLog = parseSize(options.maxLog, '--max-log');
  if (options.onLimit) out.onLimit = options.onLimit as OnLimit;
  if (options.logDir) out.logDir = path.resolve(options.logDir);
  if (options.leftovers) out.leftovers = options.leftovers as Settings['leftovers'];
  if (options.failFast) out.failFast = true;
  if (options.mask && options.mask.length > 0) out.mask = options.mask;
  if (options.liveStdout) out.liveStdout = options.liveStdout as Settings['liveStdout'];
  if (options.facts === false) out.facts = null;
  else if (typeof options.facts === 'string') out.facts = path.resolve(options.facts);
  else out.facts = defaultLedgerPath(env);
  return out;
}

function checkWritableDir(file: string, flag: string): void {
  if (isDirectory(file)) {
    throw new RequestError('usage.path', `${flag} ${file}: is a directory; name a file`);
  }
  const dir = path.dirname(path.resolve(file));
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new RequestError(
      'usage.path',
      `${flag} ${file}: directory ${dir} does not exist or is not writable`,
    );
  }
}

// The log directory must exist as a directory or be creatable: its nearest existing ancestor is a
// writable directory. Nothing is created before the run.
function checkLogDir(dir: string): void {
  let current = path.resolve(dir);
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(current, { throwIfNoEntry: false });
    } catch {
      throw new RequestError('usage.path', `log-dir ${dir}: a part of it is not a directory`);
    }
    if (!stat && fs.lstatSync(current, { throwIfNoEntry: false })) {
      throw new RequestError('usage.path', `log-dir ${dir}: ${current} is a symbolic link to nothing`);
    }
    if (stat && (current === '/proc' || current.startsWith('/proc/'))) {
      throw new RequestError('usage.path', `log-dir ${dir}: /proc is not a place for files`);
    }
    if (stat) {
      if (!stat.isDirectory()) {
        throw new RequestError('usage.path', `log-dir ${dir}: ${current} is not a directory`);
      }
      try {
        fs.accessSync(current, fs.constants.W_OK);
      } catch {
        throw new RequestError('usage.path', `log-dir ${dir}: ${current} is not writable`);
      }
      return;
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

// Exactly one way to say what to run; checked before a spec file is even read.
export function checkOneInput(options: CliOptions): void {
  const inputs = [options.argv.length > 0, options.command !== undefined, options.file !== undefined];
  const given = inputs.filter(Boolean).length;
  if (given === 0) {
    throw new RequestError(
      'usage.no-pipeline',
      'nothing to run: give a command after --, an inline pipeline with -c, or a spec file with -f (see safe-run --help)',
    );
  }
  if (given > 1) {
    throw new RequestError('usage.conflict', 'give only one of: a command after --, -c PIPELINE, -f FILE');
  }
}

// Merges defaults, the spec file (if any) and command-line flags (which win) into one validated plan.
export function buildPlan(options: CliOptions, spec: SpecInput | null, env: NodeJS.ProcessEnv): Plan {
  checkOneInput(options);
  const source: Plan['source'] = spec ? 'spec' : options.command !== undefined ? 'inline' : 'argv';
  const settings: Settings = {
    ...DEFAULT_SETTINGS,
    ...(spec?.settings ?? {}),
    ...settingsFromFlags(options, env),
  };
  if (options.fallback !== undefined && options.command === undefined) {
    throw new RequestError('usage.fallback', '--fallback applies to -c text only');
  }
  const inline = options.command !== undefined ? planInline(options.command, options, settings.policy) : null;
  const stages = spec ? spec.stages : inline ? inline.stages : stagesFromArgv(options.argv);
  if (!inline) parseOkCodes(options.okCodes ?? [], stages);
  const cwd = options.cwd === undefined ? undefined : checkCwd(options.cwd);
  if (cwd !== undefined) for (const stage of stages) stage.cwd ??= cwd;
  // `-f -` has read stdin for the spec: unless told otherwise, the first stage reads nothing rather
  // than whatever is left of it (or, from a terminal, the user's next keystrokes).
  if (options.file === '-' && spec?.settings.stdin === undefined && options.stdin === undefined) {
    settings.stdin = { kind: 'null' };
  }
  if (settings.stdin.kind === 'file' && !fs.existsSync(settings.stdin.path)) {
    throw new RequestError(
      'usage.stdin',
      `stdin ${settings.stdin.path}: no such file (from ${options.stdin !== undefined ? '--stdin' : 'the spec file'})`,
    );
  }
  for (const [key, value] of [
    ['timeout', settings.timeoutMs],
    ['idle-timeout', settings.idleTimeoutMs],
  ] as const) {
    if (value === 0)
      throw new RequestError(
        'usage.duration-range',
        `${key}: 0 would stop the pipeline before it starts; give a duration above 0`,
      );
  }
  if (options.report) checkWritableDir(options.report, '--report');
  if (settings.logDir) checkLogDir(settings.logDir);
  return {
    source,
    stages,
    settings,
    ...(inline?.shell ? { shell: inline.shell } : {}),
    ...(inline?.fallback ? { fallback: inline.fallback } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

function checkCwd(dir: string): string {
  const resolved = path.resolve(dir);
  if (!isDirectory(resolved)) {
    throw new RequestError('usage.cwd', `--cwd ${dir}: not a directory (or it does not exist)`);
  }
  return resolved;
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
