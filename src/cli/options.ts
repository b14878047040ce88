import { Command, CommanderError, Option } from 'commander';
import { requestErrorFrom } from './commander-error.js';

// What the command line said, before it is merged with a spec file and defaults into a Plan.
export interface CliOptions {
  command?: string;
  file?: string;
  policy?: string;
  sigpipe?: string;
  okCodes?: string[];
  stdin?: string;
  json?: boolean;
  report?: string;
  quiet?: boolean;
  dryRun?: boolean;
  timeout?: string;
  idleTimeout?: string;
  killAfter?: string;
  drainTimeout?: string;
  maxStdout?: string;
  maxStderr?: string;
  onLimit?: string;
  logDir?: string;
  maxLog?: string;
  mask?: string[];
  leftovers?: string;
  failFast?: boolean;
  facts?: string | false;
  liveStdout?: string;
  fallback?: string;
  cwd?: string;
  argv: string[];
}

export interface ParsedCli {
  options: CliOptions;
  // Set when commander already answered (--help, --version): print it and exit 0.
  answered: string | null;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function buildProgram(version: string): Command {
  return new Command('safe-run')
    .usage(
      '[options] -- PROGRAM [ARG...]\n       safe-run [options] -c "A | B | C"\n       safe-run [options] -f pipeline.yaml',
    )
    .description(
      'Run a pipeline without a shell: real pipes, every stage reported, an exit code by an explicit policy.\n' +
        'More: safe-run schema (the spec format), safe-run facts (programs this machine could not start).',
    )
    .version(version, '-V, --version')
    .argument('[command...]', 'one stage: the program and its arguments (after --)')
    .option('-c, --command <text>', 'a command line as bash reads it: pipelines, && || ; lists, redirections')
    .option('-f, --file <spec>', 'a pipeline spec file (.yaml, .yml, .json; - for stdin)')
    .addOption(
      new Option(
        '--fallback <shell>',
        '-c text with a construct safe-run does not interpret (loops, subshells...): run it under bash as one stage',
      ).choices(['bash']),
    )
    .option('--cwd <dir>', 'the directory the run starts in')
    .addOption(
      new Option('--policy <policy>', 'how stage outcomes become the exit code (default: pipefail)').choices([
        'pipefail',
        'first-failure',
        'last',
      ]),
    )
    .addOption(
      new Option(
        '--sigpipe <mode>',
        'a stage killed by SIGPIPE: tolerate or fail (default: tolerate)',
      ).choices(['tolerate', 'fail']),
    )
    .option(
      '--ok-codes <stage=codes>',
      'accepted exit codes for a stage, by name or 1-based index: grep=0,1 (repeatable)',
      collect,
    )
    .option('--stdin <source>', 'first stage stdin: inherit, null or a FILE (default: inherit)')
    .option('--json', 'stream nothing; print one JSON report on stdout at the end')
    .option('--report <file>', 'also write the JSON report to FILE (atomically)')
    .option('-q, --quiet', 'print the table only when the verdict is not ok')
    .option('--dry-run', 'validate, resolve programs and print the plan; start nothing')
    .option('--timeout <duration>', 'limit for the whole pipeline (250ms, 5s, 2m, 1h)')
    .option('--idle-timeout <duration>', 'stop the pipeline after this long without any I/O')
    .option('--kill-after <duration>', 'SIGKILL this long after SIGTERM (default: 5s)')
    .option('--drain-timeout <duration>', 'wait this long for output pipes after a stage exits (default: 2s)')
    .option('--max-stdout <size>', 'stdout kept per stage: head and tail (default: 32KiB)')
    .option('--max-stderr <size>', 'stderr kept per stage: head and tail (default: 32KiB)')
    .addOption(
      new Option('--on-limit <action>', 'when a stream crosses its cap (default: truncate)').choices([
        'truncate',
        'kill',
      ]),
    )
    .addOption(
      new Option(
        '--live-stdout <mode>',
        'stream the last stage stdout whole, or capped like stderr (default: full)',
      ).choices(['full', 'capped']),
    )
    .option('--log-dir <dir>', 'save every stream whole, one file per stage and stream')
    .option('--max-log <size>', 'bound for each saved stream (default: 100MiB)')
    .option('--mask <name>', 'also mask the value of this environment variable (repeatable)', collect)
    .addOption(
      new Option(
        '--leftovers <action>',
        'processes left behind by stages: kill or keep (default: kill)',
      ).choices(['kill', 'keep']),
    )
    .option('--fail-fast', 'when a stage fails, stop the others')
    .option(
      '--facts <file>',
      'the environment-facts ledger (default: $SAFE_RUN_FACTS or ~/.local/state/safe-run/facts.jsonl)',
    )
    .option('--no-facts', 'do not read or write the environment-facts ledger')
    .passThroughOptions()
    .allowExcessArguments(true)
    .helpOption('-h, --help', 'show this help')
    .showSuggestionAfterError(true);
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
    program.parse(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return { options: { okCodes: [], mask: [], argv: [] }, answered: answered ?? '' };
      }
      throw requestErrorFrom(error, message, 'safe-run --help');
    }
    throw error;
  }
  const opts = program.opts() as Omit<CliOptions, 'argv'>;
  return { options: { ...opts, argv: program.args }, answered };
}
