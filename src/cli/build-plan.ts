import fs from 'node:fs';
import path from 'node:path';
import { AGENT_ENV, AGENT_SETTINGS, withAgentEnv } from '../agent/agent-defaults.js';
import { RequestError } from '../errors.js';
import { commandLineLedger } from '../facts/ledger-path.js';
import { assemblePlan, readOkCodes, type SpecInput } from '../inputs/assemble-plan.js';
import { checkWritableFile } from '../inputs/check-paths.js';
import { stagesFromArgv } from '../inputs/command-stages.js';
import { settingsFromFlags } from '../settings/derive.js';
import { planShellText } from '../shell/plan-shell-text.js';
import type { Plan, Settings, StageSpec } from '../types.js';
import { ciRunSettings } from './ci-settings.js';
import { checkJunitTarget } from './junit-target.js';
import type { CliOptions } from './options.js';

// Exactly one way to say what to run; checked before a spec file is even read.
export function checkOneInput(options: CliOptions): void {
  // With --script, the words after -- are the script's arguments.
  const argv = options.argv.length > 0 && options.script === undefined;
  const inputs = [
    argv,
    options.command !== undefined,
    options.file !== undefined,
    options.script !== undefined,
  ];
  const given = inputs.filter(Boolean).length;
  if (given === 0) {
    throw new RequestError(
      'usage.no-pipeline',
      'nothing to run: give a command after --, bash text with -c, a script with --script, or a spec file with -f (see safe-run --help)',
    );
  }
  if (given > 1) {
    throw new RequestError(
      'usage.conflict',
      'give only one of: a command after --, -c TEXT, --script FILE, -f FILE',
    );
  }
}

function commandStages(options: CliOptions, spec: SpecInput | null): [Plan['source'], StageSpec[]] {
  if (spec) return ['spec', spec.stages];
  return ['argv', stagesFromArgv(options.argv)];
}

// The settings the command line sets. The ledger is on by default for the CLI only (the library
// keeps none unless told), unless SAFE_RUN_OPTIONS (`defaults`) names one or says --no-facts; off
// when its default place is inside the working directory.
function flagSettings(
  options: CliOptions,
  env: NodeJS.ProcessEnv,
  defaults: Partial<Settings>,
): Partial<Settings> {
  const settings = settingsFromFlags((flag) => options.settings[flag]);
  if (settings.facts === undefined && defaults.facts === undefined) {
    settings.facts = commandLineLedger(env, process.cwd());
  }
  return settings;
}

// Merges defaults, SAFE_RUN_OPTIONS (`defaults`), the spec file (if any) and command-line flags
// (which win) into one validated plan.
export function buildPlan(
  options: CliOptions,
  spec: SpecInput | null,
  env: NodeJS.ProcessEnv,
  defaults: Partial<Settings> = {},
): Plan {
  checkOneInput(options);
  const shellText =
    options.command ?? (options.script === undefined ? undefined : readScript(options.script));
  if (options.fallback !== undefined && shellText === undefined) {
    throw new RequestError('usage.fallback', '--fallback applies to -c text and --script only');
  }
  if (options.errexit && shellText === undefined) {
    throw new RequestError(
      'usage.errexit',
      '-e applies to -c text and --script only (a command or a spec is not bash text)',
    );
  }
  const agent: Partial<Settings> = options.agent ? AGENT_SETTINGS : {};
  // `-f -` has read stdin for the spec: unless told otherwise, the first stage reads nothing rather
  // than whatever is left of it (or, from a terminal, the user's next keystrokes).
  const stdinTaken: Partial<Settings> =
    options.file === '-' && spec?.settings.stdin === undefined ? { stdin: { kind: 'null' } } : {};
  const request = {
    layers: [
      ciRunSettings(options, env),
      // --agent's values are defaults too: a flag given in SAFE_RUN_OPTIONS is explicit and wins.
      agent,
      defaults,
      stdinTaken,
      spec?.settings ?? {},
      flagSettings(options, env, defaults),
    ],
    okCodes: (options.okCodes ?? []).map(readOkCodes),
    cwd: options.cwd === undefined ? null : cwdPath(options.cwd),
  };
  let plan: Plan;
  if (shellText !== undefined) {
    plan = planShellText(shellText, request, {
      // An agent's harness cannot rewrite a refused line: under --agent bash takes it (--fallback none: not).
      fallback: options.fallback === 'bash' || (options.agent === true && options.fallback !== 'none'),
      env: options.agent ? { ...AGENT_ENV } : null,
      base: env,
      errexit: options.errexit === true,
      // -e and --script: the shell starts with errexit, and a script's $0 is its file, $1... the words
      // after --; under --fallback the bash stage gets the same.
      script: options.script === undefined ? null : { arg0: options.script, args: options.argv },
    });
  } else {
    const [source, declared] = commandStages(options, spec);
    const stages = options.agent ? declared.map(withAgentEnv) : declared;
    plan = assemblePlan({ source, stages, ...request });
  }
  if (options.report !== undefined) checkWritableFile(options.report, '--report');
  if (options.junit !== undefined) checkJunitTarget(options.junit);
  return plan;
}

function cwdPath(dir: string): string {
  if (dir === '') throw new RequestError('usage.cwd', '--cwd: empty; name a directory');
  return path.resolve(dir);
}

// --script FILE (or - for stdin): its text, read whole before anything runs.
function readScript(file: string): string {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new RequestError(
      'usage.script',
      `--script ${file}: cannot read it (${code}); name a readable file, or - for stdin`,
    );
  }
}
