import { Option } from 'commander';

// safe-run's own options that are not settings of the run (those come from SETTINGS_TABLE): what to
// run, how the report is shown, where the product goes, and what CI sees. Each list is in --help order.

// Commander's way to let an option be given several times.
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function repeatable(flags: string, help: string): Option {
  return new Option(flags, help).argParser(collect);
}

export function inputOptions(): Option[] {
  return [
    new Option(
      '-c, --command <text>',
      'a command line as bash reads it: pipelines, && || ; lists, redirections',
    ),
    new Option('-f, --file <spec>', 'a pipeline spec file (.yaml, .yml, .json; - for stdin)'),
    new Option(
      '--fallback <shell>',
      '-c text with a construct safe-run does not interpret (loops, subshells...): run it under bash as one stage',
    ).choices(['bash', 'none']),
    new Option(
      '--session <file>',
      '-c text starts in the directory and with the exported variables the last run with FILE ended with',
    ),
    new Option('--cwd <dir>', 'the directory every stage runs in (default: the current one)'),
    repeatable(
      '--ok-codes <stage=codes>',
      'accepted exit codes for a stage, by name or 1-based index: grep=0,1 (repeatable)',
    ),
  ];
}

export function reportOptions(): Option[] {
  return [
    new Option(
      '--json',
      'stream nothing; print one JSON report on stdout at the end (--json compact: on one line, short)',
    ),
    new Option('--json-format <format>').choices(['full', 'compact']).hideHelp(),
    new Option(
      '--agent',
      'defaults for a program calling safe-run: stdin closed, 2m limit, no pagers (docs/agents.md)',
    ),
    new Option('--report <file>', 'also write the JSON report to FILE (atomically)'),
  ];
}

// --output and its checks (docs/publishing-outputs.md), then the switches that quiet or skip the run.
export function productOptions(): Option[] {
  return [
    new Option(
      '--output <file>',
      "the last stage's stdout goes to FILE, replaced only if the run and checks pass",
    ),
    new Option(
      '--atomic-redirects',
      "-c text: stage its final '> FILE' like --output (FILE replaced only if the run passes)",
    ),
    new Option('--keep-partial', 'with --output: keep an unpublished product as FILE.partial'),
    repeatable(
      '--expect <check>',
      'with --output: nonempty, json, lines>=N, lines<=N, lines==N (repeatable)',
    ),
    repeatable(
      '--expect-cmd <command>',
      'with --output: a checker run on the staged file; exit 0 passes (repeatable)',
    ),
    new Option('-q, --quiet', 'print the table only when the verdict is not ok'),
    new Option('--dry-run', 'validate, resolve programs and print the plan; start nothing'),
  ];
}

export function ciOptions(): Option[] {
  return [
    new Option(
      '--ci <system>',
      'CI output: groups, annotations, step summary (default: from GITHUB_ACTIONS / GITLAB_CI)',
    ).choices(['github', 'gitlab', 'none']),
    new Option('--junit <file>', 'also write a JUnit XML file, one testcase per stage (atomically)'),
    new Option(
      '--timestamps',
      "time of day on safe-run's lines and on stderr lines (default: on when CI=true)",
    ),
    new Option('--no-timestamps', 'no timestamps, even in CI'),
    new Option('--no-live', 'no live per-stage status lines on a terminal'),
    new Option(
      '--heartbeat <duration>',
      'after this long with no output, say what each stage is doing (default: 60s when CI=true; off: 0)',
    ),
  ];
}
