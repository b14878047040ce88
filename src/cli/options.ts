import { Command, CommanderError, Option } from 'commander';
import { RequestError } from '../errors.js';
import type { FlagValue } from '../settings/kinds.js';
import { settingRows } from '../settings/table.js';
import { requestErrorFrom } from './commander-error.js';
import { type CliFlagValues, cliFlagRows, type FlagGroup } from './flag-table.js';
import { collect, flagOptions } from './program-options.js';

const FLAG_GROUPS: FlagGroup[] = ['input', 'report', 'product', 'ci'];

// What the command line said, before it is merged with a spec file and defaults into a Plan: the
// flags of CLI_FLAGS by key (src/cli/flag-table.ts), the settings flags, and the command's words.
export type CliOptions = CliFlagValues & {
  // The settings flags (SETTINGS_TABLE), by long flag: '--timeout' -> '5s'.
  settings: Record<string, FlagValue>;
  argv: string[];
};

interface ParsedCli {
  options: CliOptions;
  // Set when commander already answered (--help, --version): print it and exit 0.
  answered: string | null;
}

// " (default: 5s)"; nothing for an unset value, a switch that is off or an empty list.
export function helpDefault<T>(value: T, show: (value: T) => string): string {
  const unset = value === null || value === false || (Array.isArray(value) && value.length === 0);
  return unset ? '' : ` (default: ${show(value)})`;
}

// The options every setting in SETTINGS_TABLE gives the command line.
function settingOptions(): Option[] {
  const options: Option[] = [];
  for (const row of settingRows()) {
    const arg = row.arg ?? row.kind.arg;
    const shown = helpDefault(row.default, row.kind.show);
    const option = new Option(arg === null ? row.flag : `${row.flag} ${arg}`, `${row.help}${shown}`);
    if (row.kind.choices) option.choices(row.kind.choices);
    if (row.kind.repeatable) option.argParser(collect);
    options.push(option);
    if (row.kind.negation) options.push(new Option(`--no-${row.flag.slice(2)}`, row.kind.negation));
  }
  return options;
}

function buildProgram(version: string): Command {
  const program = new Command('safe-run')
    .usage(
      "[options] -- PROGRAM [ARG...]\n       safe-run [options] -c 'cd app && npm test 2>&1 | tail -n 40'\n" +
        '       safe-run [options] [-e] --script FILE [-- ARG...]\n       safe-run [options] -f pipeline.yaml\n' +
        '       safe-run mcp',
    )
    .description(
      'Run a command line as bash would, each program in its own process group on real pipes: every stage reported, an exit code by an explicit policy, nothing left running.\n' +
        'Defaults for every run: SAFE_RUN_OPTIONS="--timeout 10m --log-dir logs" (flags, lowest precedence).\n' +
        'More: safe-run schema (the spec format), safe-run facts (programs this machine could not start).',
    )
    .version(version, '-V, --version')
    .argument('[command...]', 'one stage: the program and its arguments (after --)');
  // In the order --help shows them: what to run, the report, the product, CI; then the settings.
  const groups = [...FLAG_GROUPS.map(flagOptions), settingOptions()];
  for (const option of groups.flat()) program.addOption(option);
  return program
    .passThroughOptions()
    .allowExcessArguments(true)
    .helpOption('-h, --help', 'show this help')
    .showSuggestionAfterError(true);
}

function toCliOptions(program: Command): CliOptions {
  const opts: Record<string, unknown> = program.opts();
  const settings: Record<string, FlagValue> = {};
  for (const row of settingRows()) {
    const value = opts[new Option(row.flag).attributeName()];
    if (value !== undefined) settings[row.flag] = value as FlagValue;
  }
  const options: CliOptions = { settings, argv: program.args };
  // Only what the words said: a --no- flag alone gives its option a default commander made up.
  for (const row of cliFlagRows()) {
    if (program.getOptionValueSource(row.key) === 'cli') Object.assign(options, { [row.key]: opts[row.key] });
  }
  return options;
}

// Parses safe-run's own flags. Errors become RequestError (exit 125), never commander's own exit.
export function parseCli(args: string[], version: string): ParsedCli {
  const program = buildProgram(version);
  let answered: string | null = null;
  let message = '';
  program.exitOverride();
  program.configureOutput({
    writeOut: (text) => {
      answered = (answered ?? '') + text;
    },
    writeErr: (text) => {
      message += text;
    },
    outputError: (text) => {
      message += text;
    },
  });
  try {
    program.parse(spellJsonFormat(args), { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return { options: { settings: {}, argv: [] }, answered: answered ?? '' };
      }
      throw requestErrorFrom(error, message, 'safe-run --help');
    }
    throw error;
  }
  return { options: toCliOptions(program), answered };
}

// `--json compact` and `--json=full` name a format; a bare `--json` followed by a program
// (`--json echo hi`) must not lose its program to the option, so only these two words are taken.
function spellJsonFormat(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i)];
    const inline = /^--json=(.*)$/.exec(arg);
    if (inline && inline[1] !== 'compact' && inline[1] !== 'full') {
      throw new RequestError(
        'usage.json-format',
        `--json=${inline[1]}: no such report format; use --json (the full report) or --json compact (one line)`,
      );
    }
    if (inline) out.push('--json', '--json-format', inline[1]!);
    else if (arg === '--json' && (args[i + 1] === 'compact' || args[i + 1] === 'full')) {
      out.push('--json', '--json-format', args[i + 1]!);
      i += 1;
    } else out.push(arg);
  }
  return out;
}
