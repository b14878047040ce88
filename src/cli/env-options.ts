import { isRequestError, RequestError } from '../errors.js';
import { settingsFromFlags } from '../settings/derive.js';
import type { Settings } from '../types.js';
import { cliFlagRows } from './flag-table.js';
import { type CliOptions, parseCli } from './options.js';
import { shownFlag } from './program-options.js';
import { ENV_OPTIONS, splitWords } from './split-words.js';

// Every error found in SAFE_RUN_OPTIONS says it came from there, since the command line looks fine.
function fromEnv<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!isRequestError(error)) throw error;
    throw new RequestError(error.code, `${ENV_OPTIONS}: ${error.message}`, error.column);
  }
}

// SAFE_RUN_OPTIONS: flags for every run (a CI job's --timeout, --log-dir), parsed like the command
// line and of the lowest precedence: a spec file and the command line override them. What to run
// (-c, -f, a command) belongs on the command line only.
export function applyEnvOptions(
  cli: CliOptions,
  env: NodeJS.ProcessEnv,
): { options: CliOptions; defaults: Partial<Settings> } {
  const text = env[ENV_OPTIONS];
  if (text === undefined || text.trim() === '') return { options: cli, defaults: {} };
  const parsed = fromEnv(() => parseCli(splitWords(text, 'the text'), '0').options);
  if (parsed.argv.length > 0) {
    throw new RequestError(
      'usage.env-options',
      `${ENV_OPTIONS}: unexpected ${JSON.stringify(parsed.argv[0])}; it holds options only (quote a value with spaces)`,
    );
  }
  refuseRunFlags(parsed);
  const defaults = fromEnv(() => settingsFromFlags((flag) => parsed.settings[flag]));
  return { options: mergeFlags(cli, parsed), defaults };
}

// A flag of CLI_FLAGS that names what one run does (what to run, its product) cannot be a default.
function refuseRunFlags(parsed: CliOptions): void {
  for (const row of cliFlagRows()) {
    if (row.fromEnv === 'default' || parsed[row.key] === undefined) continue;
    throw new RequestError(
      'usage.env-options',
      `${ENV_OPTIONS}: ${shownFlag(row.key)} is refused there: ${row.fromEnv.refuse}`,
    );
  }
}

// Every other flag: the command line's value wins; a repeatable flag's values add to the environment's.
function mergeFlags(cli: CliOptions, env: CliOptions): CliOptions {
  const options: CliOptions = { ...cli };
  for (const { key, kind } of cliFlagRows()) {
    const [mine, base] = [cli[key], env[key]];
    if (base === undefined) continue;
    const merged = kind.repeatable
      ? [...(base as string[]), ...((mine as string[] | undefined) ?? [])]
      : (mine ?? base);
    Object.assign(options, { [key]: merged });
  }
  return options;
}
