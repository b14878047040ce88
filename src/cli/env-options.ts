import { isRequestError, RequestError } from '../errors.js';
import { settingsFromFlags } from '../settings/derive.js';
import type { Settings } from '../types.js';
import { type CliOptions, parseCli } from './options.js';
import { splitWords } from './split-words.js';

export const ENV_OPTIONS = 'SAFE_RUN_OPTIONS';

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
  if (parsed.command !== undefined || parsed.file !== undefined) {
    throw new RequestError(
      'usage.env-options',
      `${ENV_OPTIONS}: only options; give what to run (-c, -f or a command) on the command line`,
    );
  }
  const defaults = fromEnv(() => settingsFromFlags((flag) => parsed.settings[flag]));
  const options: CliOptions = {
    ...cli,
    json: cli.json ?? parsed.json,
    quiet: cli.quiet ?? parsed.quiet,
    dryRun: cli.dryRun ?? parsed.dryRun,
    report: cli.report ?? parsed.report,
    cwd: cli.cwd ?? parsed.cwd,
    okCodes: [...(parsed.okCodes ?? []), ...(cli.okCodes ?? [])],
  };
  return { options, defaults };
}
