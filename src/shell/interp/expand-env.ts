import { bashPath } from '../bash-path.js';
import { bashVersionInfo } from '../bash-version.js';
import type { ExpandEnv } from '../expand/env.js';
import { generatedValue } from '../expand/random-variable.js';
import type { RunnerApi } from './api.js';
import { bashCommand } from './bash-command.js';
import { processSubstitute } from './process-subst.js';
import { substitute } from './substitution.js';

// What expansion sees of a runner's shell: its variables and parameters, options, directory, and the
// runner itself for command and process substitutions.
export function expandEnvOf(r: RunnerApi): ExpandEnv {
  const { sh, rt } = r;
  return {
    get vars() {
      return sh.vars;
    },
    get positional() {
      return sh.positional;
    },
    get arg0() {
      return sh.arg0;
    },
    get status() {
      return sh.status;
    },
    pid: rt.pid,
    get lastBackground() {
      return sh.lastBackground;
    },
    flags: () => sh.flags(),
    get lastArg() {
      return sh.lastArg;
    },
    get lineno() {
      return sh.lineno;
    },
    get nounset() {
      return sh.option('nounset');
    },
    get noglob() {
      return sh.option('noglob');
    },
    shopt: (name) => sh.shopts.has(name),
    get cwd() {
      return sh.cwd;
    },
    oracle: rt.oracle,
    dynamic: (name) => dynamicValue(r, name),
    get pipestatus() {
      return sh.pipestatus;
    },
    get dirStack() {
      return [sh.cwd, ...sh.dirStack];
    },
    get bashVersinfo() {
      return bashVersionInfo().versinfo;
    },
    get funcNames() {
      return sh.funcNameArray();
    },
    sourceStack: (lines) => (lines ? sh.sourceLines.map(String) : sh.sources),
    substitute: (part) => substitute(r, part),
    processSubstitute: (part) => processSubstitute(r, part),
    ansiRead: (part) => rt.ansiRead.get(part),
    warn: (message) => {
      void r.error(message);
    },
  };
}

// Variables bash computes when they are read.
function dynamicValue(r: RunnerApi, name: string): string | undefined {
  const { sh } = r;
  switch (name) {
    case 'BASH':
      return bashPath();
    case 'BASH_VERSION':
      return bashVersionInfo().version;
    case 'BASH_COMMAND':
      return bashCommand(r);
    case 'LINENO':
      return String(sh.lineno);
    case 'RANDOM':
    case 'SRANDOM':
      return generatedValue(sh.vars.get(name));
    case 'SECONDS':
      // Since safe-run started: read from the process, not from a clock taken when this module loaded
      // (in the start-up snapshot that was the build).
      return String(Math.floor(process.uptime()));
    case 'EPOCHSECONDS':
      return String(Math.floor(Date.now() / 1000));
    case 'EPOCHREALTIME':
      return (Date.now() / 1000).toFixed(6);
    case 'BASH_SUBSHELL':
      return String(sh.subshell);
    default:
      return undefined;
  }
}
