// What a benchmark run was asked to do, parsed and validated before anything runs.

export const SECTIONS = [
  'startup',
  'pipe',
  'data',
  'rss',
  'procs',
  'stages',
  'text',
  'inspect',
  'limits',
  'mcp',
  'ci',
];

// What a run without --only measures: all but ci, whose 15-step job under four shells adds about
// a minute at the default rounds on a loaded 2-core machine (docs/benchmarks.md#a-ci-job).
const DEFAULT_SECTIONS = SECTIONS.filter((id) => id !== 'ci');

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

const FULL = {
  startupRuns: 25,
  runs: 5,
  rssRuns: 3,
  pipeSize: 2 * GIB,
  dataSize: GIB,
  rssSizes: [10 * MIB, GIB],
  procsRuns: 7,
  idleProcesses: 2000,
};

// Small enough that the whole suite takes well under a minute on a loaded 2-core machine.
const QUICK = {
  startupRuns: 10,
  runs: 3,
  rssRuns: 2,
  pipeSize: 256 * MIB,
  dataSize: 64 * MIB,
  rssSizes: [10 * MIB, 64 * MIB],
  procsRuns: 3,
  idleProcesses: 2000,
};

export const USAGE = `usage: node scripts/bench/run.mjs [options]

Measures safe-run against the plain shell in the same run and prints a markdown table of medians
and ratios on stdout (progress goes to stderr).

  --quick               short run: smaller sizes, fewer repeats (under a minute)
  --only LIST           sections to run, comma-separated: ${SECTIONS.join(',')} (default: all but ci)
  --runs N              repeats for the pipe, data, rss and ci sections (default: ${FULL.runs}; rss ${FULL.rssRuns})
  --startup-runs N      repeats for the start-up, stages, text and inspect sections (default: ${FULL.startupRuns})
  --pipe-size SIZE      bytes through the kernel pipe (default: 2GiB; --quick 256MiB)
  --data-size SIZE      bytes read by safe-run itself (default: 1GiB; --quick 64MiB)
  --rss-sizes LIST      bytes written to stdout and to stderr each, for peak RSS (default: 10MiB,1GiB)
  --bin PATH            the safe-run to measure (default: a snapshot of this checkout's bin/ and dist/)
  --raw FILE            also write every sample as JSON to FILE
  -h, --help            show this help

SIZE: a whole number of bytes with an optional binary unit: 1048576, 512K, 64M, 2G (or KiB/MiB/GiB).`;

export class UsageError extends Error {}

const UNITS = { '': 1, K: KIB, M: MIB, G: GIB };

export function parseSize(flag, text) {
  const match = /^(\d+)\s*([KMG]?)(?:I?B)?$/i.exec(text ?? '');
  if (!match) throw new UsageError(`${flag} ${text ?? ''}: not a size; write bytes or e.g. 64M, 1G`);
  const bytes = Number(match[1]) * UNITS[match[2].toUpperCase()];
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new UsageError(`${flag} ${text}: must be above 0`);
  return bytes;
}

function parseCount(flag, text) {
  const n = Number(text);
  if (!/^\d+$/.test(text ?? '') || n < 1) throw new UsageError(`${flag} ${text ?? ''}: a whole number >= 1`);
  return n;
}

function parseOnly(text) {
  const names = (text ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !SECTIONS.includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--only ${text ?? ''}: choose from ${SECTIONS.join(', ')}`);
  }
  return names;
}

// Returns the validated options, or { help: true }. Throws UsageError naming the bad flag.
export function parseOptions(args) {
  const given = {};
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const value = () => {
      i += 1;
      if (i >= args.length) throw new UsageError(`${flag} needs a value (see --help)`);
      return args[i];
    };
    if (flag === '-h' || flag === '--help') return { help: true };
    else if (flag === '--quick') given.quick = true;
    else if (flag === '--only') given.only = parseOnly(value());
    else if (flag === '--runs') given.runs = parseCount(flag, value());
    else if (flag === '--startup-runs') given.startupRuns = parseCount(flag, value());
    else if (flag === '--pipe-size') given.pipeSize = parseSize(flag, value());
    else if (flag === '--data-size') given.dataSize = parseSize(flag, value());
    else if (flag === '--rss-sizes')
      given.rssSizes = value()
        .split(',')
        .map((s) => parseSize(flag, s));
    else if (flag === '--bin') given.bin = value();
    else if (flag === '--raw') given.raw = value();
    else throw new UsageError(`unknown option ${flag} (see --help)`);
  }
  const preset = given.quick ? QUICK : FULL;
  return {
    help: false,
    quick: given.quick === true,
    only: given.only ?? DEFAULT_SECTIONS,
    startupRuns: given.startupRuns ?? preset.startupRuns,
    procsRuns: preset.procsRuns,
    idleProcesses: preset.idleProcesses,
    runs: given.runs ?? preset.runs,
    rssRuns: given.runs ?? preset.rssRuns,
    pipeSize: given.pipeSize ?? preset.pipeSize,
    dataSize: given.dataSize ?? preset.dataSize,
    rssSizes: given.rssSizes ?? preset.rssSizes,
    bin: given.bin ?? null,
    raw: given.raw ?? null,
  };
}

export function formatSize(bytes) {
  if (bytes % GIB === 0) return `${bytes / GIB} GiB`;
  if (bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes} B`;
}
