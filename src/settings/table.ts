import {
  LEFTOVERS_MODES,
  LIVE_STDOUT_MODES,
  ON_DEADLOCK_ACTIONS,
  ON_LIMIT_ACTIONS,
  POLICIES,
  SIGPIPE_MODES,
} from '../model/setting-values.js';
import type { Settings } from '../types.js';
import {
  directoryKind,
  durationKind,
  enumKind,
  ledgerKind,
  limitKind,
  namesKind,
  type SettingKind,
  sizeKind,
  stdinKind,
  switchKind,
} from './kinds.js';

// One pipeline-wide setting, everywhere it appears. Derived from SETTINGS_TABLE through settingRows():
// the commander options (src/cli/options.ts), the spec schema's pipeline keys (src/spec-file/schema.ts,
// and so docs/schema/spec.schema.json), DEFAULT_SETTINGS (defaults.ts), the merge of flags and of a
// spec file's keys (derive.ts), and which flags take a value where a refused request is read again
// (src/cli/refusal.ts).
interface SettingRow<K extends keyof Settings> {
  // The long flag, without its argument: --idle-timeout.
  flag: `--${string}`;
  // The flag's argument name in --help when not the kind's own (<policy> rather than <mode>).
  arg?: string;
  // The pipeline-level key in a spec file; null for a setting only a flag gives.
  specKey: string | null;
  kind: SettingKind<Settings[K], unknown>;
  default: Settings[K];
  // The --help line (the default is appended from `default`).
  help: string;
  // The spec key's description: the JSON Schema, and the key table in docs/spec.md.
  doc: string;
}

type SettingsTable = { readonly [K in keyof Settings]: SettingRow<K> };

// Adding a setting: a field in Settings (src/model/plan.ts, imported through src/types.ts), for an
// enum its value list in src/model/setting-values.ts, one row here, and its use; then the JSON Schema
// (node scripts/gen-spec-schema.mjs) and docs/cli.md. Rows are in the order the spec keys and --help
// list them.
const SETTINGS_TABLE: SettingsTable = {
  policy: {
    flag: '--policy',
    arg: '<policy>',
    specKey: 'policy',
    kind: enumKind(POLICIES),
    default: 'pipefail',
    help: 'how stage outcomes become the exit code',
    doc: 'Which stage outcomes decide the exit code.',
  },
  sigpipe: {
    flag: '--sigpipe',
    specKey: 'sigpipe',
    kind: enumKind(SIGPIPE_MODES),
    default: 'tolerate',
    help: 'a stage killed by SIGPIPE: tolerate or fail',
    doc: 'Whether a stage killed by SIGPIPE (its reader exited early) counts as a success.',
  },
  stdin: {
    flag: '--stdin',
    specKey: 'stdin',
    kind: stdinKind(),
    default: { kind: 'inherit' },
    help: 'first stage stdin: inherit, null or a FILE',
    doc: "The first stage's stdin: inherit, null, or a file path (relative to the spec file's directory).",
  },
  timeoutMs: {
    flag: '--timeout',
    specKey: 'timeout',
    kind: limitKind(),
    default: null,
    help: 'limit for the whole pipeline (10 = 10s, 250ms, 2m, 1h, 1d; 0 = none)',
    doc: 'Time limit for the whole pipeline (10 is 10 seconds; 0 is no limit). Default: none.',
  },
  idleTimeoutMs: {
    flag: '--idle-timeout',
    specKey: 'idle-timeout',
    kind: limitKind(),
    default: null,
    help: 'stop the pipeline after this long without any I/O (0 = none)',
    doc: 'Stop the pipeline when no stage writes output for this long (0 is no limit). Default: none.',
  },
  promptWaitMs: {
    flag: '--prompt-wait',
    specKey: 'prompt-wait',
    kind: limitKind(),
    default: null,
    help: 'stop a stage quiet this long after printing a prompt such as [y/N] (CI=true: 30s; --agent: 2s; 0 = never)',
    doc: 'Stop the pipeline when a stage has been quiet this long right after printing a prompt ("[y/N]", "Password:"): nobody will answer it. Default: none; 30s when CI=true (docs/ci.md); 2s under --agent (docs/agents.md).',
  },
  killAfterMs: {
    flag: '--kill-after',
    specKey: 'kill-after',
    kind: durationKind(),
    default: 5000,
    help: 'SIGKILL this long after SIGTERM (0 = at once)',
    doc: 'Grace period between SIGTERM and SIGKILL (0 sends SIGKILL right after SIGTERM).',
  },
  drainTimeoutMs: {
    flag: '--drain-timeout',
    specKey: 'drain-timeout',
    kind: durationKind(),
    default: 2000,
    help: 'wait this long for output pipes after a stage exits (0 = not at all)',
    doc: 'How long to wait for output streams to close after the stages exit (0 does not wait).',
  },
  // Tens of KiB per stream: enough for a failing test's output, small enough for an agent's context.
  maxStdout: {
    flag: '--max-stdout',
    specKey: 'max-stdout',
    kind: sizeKind(),
    default: 32 * 1024,
    help: 'stdout kept per stage: head and tail',
    doc: "Bytes of each stage's stdout kept in the report (head and tail).",
  },
  maxStderr: {
    flag: '--max-stderr',
    specKey: 'max-stderr',
    kind: sizeKind(),
    default: 32 * 1024,
    help: 'stderr kept per stage: head and tail',
    doc: "Bytes of each stage's stderr kept in the report (head and tail).",
  },
  maxLog: {
    flag: '--max-log',
    specKey: 'max-log',
    kind: sizeKind(),
    default: 100 * 1024 * 1024,
    help: 'bound for each saved stream',
    doc: 'Largest log file written per stream under log-dir.',
  },
  onLimit: {
    flag: '--on-limit',
    arg: '<action>',
    specKey: 'on-limit',
    kind: enumKind(ON_LIMIT_ACTIONS),
    default: 'truncate',
    help: 'when a stream crosses its cap',
    doc: 'What happens when a stream passes its limit: keep running and truncate, or kill the stage.',
  },
  liveStdout: {
    flag: '--live-stdout',
    specKey: 'live-stdout',
    kind: enumKind(LIVE_STDOUT_MODES),
    default: 'full',
    help: 'stream the last stage stdout whole, or capped like stderr',
    doc: "How the last stage's stdout is shown live: whole, as the pipeline's product, or capped at max-stdout like stderr (then its tail at the end).",
  },
  logDir: {
    flag: '--log-dir',
    specKey: 'log-dir',
    kind: directoryKind(),
    default: null,
    help: 'save every stream whole, one file per stage and stream',
    doc: "Directory where every stream is saved in full (relative to the spec file's directory). Default: none.",
  },
  leftovers: {
    flag: '--leftovers',
    arg: '<action>',
    specKey: 'leftovers',
    kind: enumKind(LEFTOVERS_MODES),
    default: 'kill',
    help: 'processes left behind by stages: kill or keep',
    doc: 'What to do with processes a stage left running after it exited.',
  },
  failFast: {
    flag: '--fail-fast',
    specKey: 'fail-fast',
    kind: switchKind(),
    default: false,
    help: 'when a stage fails, stop the others',
    doc: 'Stop the other stages as soon as one fails.',
  },
  onDeadlock: {
    flag: '--on-deadlock',
    arg: '<action>',
    specKey: 'on-deadlock',
    kind: enumKind(ON_DEADLOCK_ACTIONS),
    default: 'wait',
    help: 'when the run deadlocks: wait for a time limit, or stop it at once (stop: default in CI)',
    doc: 'What happens when the processes of the run wait only for one another (a deadlock): wait for a time limit, or stop the run as soon as it is seen.',
  },
  mask: {
    flag: '--mask',
    specKey: 'mask',
    kind: namesKind(),
    default: [],
    help: 'also mask the value of this environment variable (repeatable)',
    doc: 'Environment variables whose values are masked in output, besides the secret-looking ones.',
  },
  // The CLI's default is $SAFE_RUN_FACTS or ~/.local/state/safe-run/facts.jsonl; the library keeps none.
  facts: {
    flag: '--facts',
    specKey: null,
    kind: ledgerKind('the environment-facts ledger'),
    default: null,
    help: 'the environment-facts ledger ($SAFE_RUN_FACTS or ~/.local/state/safe-run/facts.jsonl; --no-facts: none)',
    doc: 'The environment-facts ledger.',
  },
};

type AnyRow = SettingRow<keyof Settings> & { key: keyof Settings };

// The rows as a list, each with its Settings field.
export function settingRows(): AnyRow[] {
  return (Object.keys(SETTINGS_TABLE) as (keyof Settings)[]).map((key) => ({
    ...(SETTINGS_TABLE[key] as SettingRow<keyof Settings>),
    key,
  }));
}
