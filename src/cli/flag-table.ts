import { CI_FRAMES } from '../reporters/ci/ci-frame.js';

// One table of safe-run's own flags that are not settings of the run (those are SETTINGS_TABLE):
// what to run, how the report is shown, where the product goes, what CI sees. The commander
// options (program-options.ts), the fields of CliOptions (options.ts), the --help order and the
// merge of SAFE_RUN_OPTIONS (env-options.ts) are all derived from CLI_FLAGS.

// What a flag's value is: its TypeScript type (carried, never stored), whether it may be given
// several times, and its allowed words.
interface FlagKind<T> {
  readonly repeatable: boolean;
  readonly choices: readonly string[] | null;
  readonly _value?: T;
}

const text: FlagKind<string> = { repeatable: false, choices: null };
const texts: FlagKind<string[]> = { repeatable: true, choices: null };
const on: FlagKind<boolean> = { repeatable: false, choices: null };

function oneOf<const C extends readonly string[]>(choices: C): FlagKind<C[number]> {
  return { repeatable: false, choices };
}

// Where --help lists a flag: what to run, the report, the product, CI (then the settings).
export type FlagGroup = 'input' | 'report' | 'product' | 'ci';

// How SAFE_RUN_OPTIONS treats the flag: 'default' is a value for every run, below the command line
// (repeatable flags: the environment's values come first); 'refuse' is exit 125 naming the flag,
// with `why` (the flag names what one run does, not how every run is done).
type FromEnv = 'default' | { refuse: string };

interface CliFlagRow<T> {
  // Commander's spelling: '-c, --command <text>'; a switch has no <arg>.
  flags: string;
  help: string;
  group: FlagGroup;
  kind: FlagKind<T>;
  fromEnv: FromEnv;
  // The help of the flag's --no- form, when it has one (it sets the value to false).
  negation?: string;
  hidden?: boolean;
}

const WHAT_TO_RUN = 'give what to run (-c, -f or a command) on the command line';
const ONE_PRODUCT = "it names one run's product; give it on the command line of that run";

// Rows are in --help order. Adding a CLI-only flag: one row here, and where it acts in src/cli/.
export const CLI_FLAGS = {
  command: {
    flags: '-c, --command <text>',
    help: 'bash text, run as bash -o pipefail -c would: lists, loops, functions, substitutions...',
    group: 'input',
    kind: text,
    fromEnv: { refuse: WHAT_TO_RUN },
  },
  file: {
    flags: '-f, --file <spec>',
    help: 'a pipeline spec file (.yaml, .yml, .json; - for stdin)',
    group: 'input',
    kind: text,
    fromEnv: { refuse: WHAT_TO_RUN },
  },
  script: {
    flags: '--script <file>',
    help: 'a bash script (a file, - for stdin), run as bash FILE would; the arguments after -- are $1...',
    group: 'input',
    kind: text,
    fromEnv: { refuse: WHAT_TO_RUN },
  },
  errexit: {
    flags: '-e, --errexit',
    help: '-c text or --script: end at the first command that fails, as bash -e (set -e from the start)',
    group: 'input',
    kind: on,
    fromEnv: 'default',
  },
  fallback: {
    flags: '--fallback <shell>',
    help: '-c text with a construct safe-run does not interpret (loops, subshells...): run it under bash as one stage',
    group: 'input',
    kind: oneOf(['bash', 'none']),
    fromEnv: 'default',
  },
  // A harness that starts one safe-run per call may set it for all of them in SAFE_RUN_OPTIONS.
  session: {
    flags: '--session <file>',
    help: '-c text starts in the directory and with the exported variables the last run with FILE ended with',
    group: 'input',
    kind: text,
    fromEnv: 'default',
  },
  cwd: {
    flags: '--cwd <dir>',
    help: 'the directory every stage runs in (default: the current one)',
    group: 'input',
    kind: text,
    fromEnv: 'default',
  },
  okCodes: {
    flags: '--ok-codes <stage=codes>',
    help: 'accepted exit codes for a stage, by name or 1-based index: grep=0,1 (repeatable)',
    group: 'input',
    kind: texts,
    fromEnv: 'default',
  },
  json: {
    flags: '--json',
    help: 'stream nothing; print one JSON report on stdout at the end (--json compact: on one line, short)',
    group: 'report',
    kind: on,
    fromEnv: 'default',
  },
  // `--json compact` is spelled as this hidden flag before commander reads the words (options.ts).
  jsonFormat: {
    flags: '--json-format <format>',
    help: '',
    group: 'report',
    kind: oneOf(['full', 'compact']),
    fromEnv: 'default',
    hidden: true,
  },
  agent: {
    flags: '--agent',
    help: 'defaults for a program calling safe-run: stdin closed, 2m limit, no pagers (docs/agents.md)',
    group: 'report',
    kind: on,
    fromEnv: 'default',
  },
  report: {
    flags: '--report <file>',
    help: 'also write the JSON report to FILE (atomically)',
    group: 'report',
    kind: text,
    fromEnv: 'default',
  },
  output: {
    flags: '--output <file>',
    help: "the last stage's stdout goes to FILE, replaced only if the run and checks pass",
    group: 'product',
    kind: text,
    fromEnv: { refuse: ONE_PRODUCT },
  },
  atomicRedirects: {
    flags: '--atomic-redirects',
    help: "-c text: stage its final '> FILE' like --output (FILE replaced only if the run passes)",
    group: 'product',
    kind: on,
    fromEnv: 'default',
  },
  keepPartial: {
    flags: '--keep-partial',
    help: 'with --output: keep an unpublished product as FILE.partial',
    group: 'product',
    kind: on,
    fromEnv: 'default',
  },
  expect: {
    flags: '--expect <check>',
    help: 'with --output: nonempty, json, lines>=N, lines<=N, lines==N (repeatable)',
    group: 'product',
    kind: texts,
    fromEnv: { refuse: ONE_PRODUCT },
  },
  expectCmd: {
    flags: '--expect-cmd <command>',
    help: 'with --output: a checker run on the staged file; exit 0 passes (repeatable)',
    group: 'product',
    kind: texts,
    fromEnv: { refuse: ONE_PRODUCT },
  },
  quiet: {
    flags: '-q, --quiet',
    help: 'print the table only when the verdict is not ok',
    group: 'product',
    kind: on,
    fromEnv: 'default',
  },
  dryRun: {
    flags: '--dry-run',
    help: 'validate, resolve programs and print the plan; start nothing',
    group: 'product',
    kind: on,
    fromEnv: 'default',
  },
  ci: {
    flags: '--ci <system>',
    help: 'CI output: groups, annotations, step summary (default: from GITHUB_ACTIONS / GITLAB_CI)',
    group: 'ci',
    kind: oneOf(CI_FRAMES),
    fromEnv: 'default',
  },
  junit: {
    flags: '--junit <file>',
    help: 'also write a JUnit XML file, one testcase per stage (atomically); DIR/: a new file in DIR for each run',
    group: 'ci',
    kind: text,
    fromEnv: 'default',
  },
  timestamps: {
    flags: '--timestamps',
    help: "time of day on safe-run's lines and on stderr lines (default: on when CI=true, unless the CI system stamps its log)",
    group: 'ci',
    kind: on,
    fromEnv: 'default',
    negation: 'no timestamps, even in CI',
  },
  live: {
    flags: '--no-live',
    help: 'no live per-stage status lines on a terminal',
    group: 'ci',
    kind: on,
    fromEnv: 'default',
  },
  heartbeat: {
    flags: '--heartbeat <duration>',
    help: 'after this long with no output, say what each stage is doing (default: 60s when CI=true; off: 0)',
    group: 'ci',
    kind: text,
    fromEnv: 'default',
  },
} as const satisfies Record<string, CliFlagRow<unknown>>;

export type CliFlagKey = keyof typeof CLI_FLAGS;

type ValueOf<R> = R extends { kind: FlagKind<infer T> } ? T : never;

// What the flags of CLI_FLAGS said, by key; absent when not given.
export type CliFlagValues = { -readonly [K in CliFlagKey]?: ValueOf<(typeof CLI_FLAGS)[K]> };

// The rows in --help order, each with its key.
export function cliFlagRows(): (CliFlagRow<unknown> & { key: CliFlagKey })[] {
  return (Object.keys(CLI_FLAGS) as CliFlagKey[]).map((key) => ({ key, ...CLI_FLAGS[key] }));
}
