// The goals of issue 28, each with its target, what it is measured against and whether this run met
// it, plus the goal of issue 27 (inspect of a small tree) and the figures issues 23 (a loop's
// iteration, a long loop's report) and 24 (agent calls over MCP) ask for: one table, printed after
// the cases. A ratio is the median of per-round ratios (the
// two cases ran in the same round), with the spread of those ratios over the rounds beside it.
import { ITERATIONS, perUnit, STEPS } from './cost-cases.mjs';
import { limitRows } from './limit-cases.mjs';
import { formatSize } from './options.mjs';
import { formatMs } from './rounds.mjs';
import { median, pairedRatios, range } from './stats.mjs';

// A case against another of the same section, on wall time (or peak RSS).
const against = (id, baseId, key = 'wallMs') => ({ kind: 'cases', id, baseId, key });
// One more unit (a step, an iteration) of a case against one more unit of a baseline.
const perUnitOf = (ids, baseIds, count, baseCount) => ({ kind: 'units', ids, baseIds, count, baseCount });

function goalList(options) {
  const rssSize = Math.max(...options.rssSizes);
  const steps = ['steps-sr-1', 'steps-sr-n'];
  const spawns = ['steps-node-1', 'steps-node-n'];
  const loop = ['loop-sr-1', 'loop-sr-n'];
  return [
    {
      section: 'startup',
      what: '`safe-run -q -- true` / bare shape (node + watchdog sh + the stage)',
      target: 1.25,
      measure: against('sr-true', 'bare-start'),
    },
    {
      section: 'startup',
      what: '`safe-run -q -- true` / bare shape with the stage started in a cgroup, as safe-run starts it',
      target: 1.25,
      measure: against('sr-true', 'bare-start-cgroup'),
    },
    {
      section: 'startup',
      what: '`safe-run --version` / `node -e 0`',
      target: 1.2,
      measure: against('sr-version', 'node-0'),
    },
    {
      section: 'text',
      what: 'a further `-c` step / one bare Node spawn',
      target: 2,
      measure: perUnitOf(steps, spawns, STEPS, STEPS),
    },
    {
      section: 'stages',
      what: '32 stages / bare Node shape',
      target: 1.3,
      measure: against('stages-sr', 'stages-node-bare'),
    },
    {
      section: 'pipe',
      what: `${formatSize(options.pipeSize)} through kernel pipes / bash`,
      target: 1.0,
      measure: against('pipe-sr', 'pipe-bash'),
    },
    {
      section: 'data',
      what: `${formatSize(options.dataSize)} of stdout streamed by safe-run / \`bash | cat\``,
      target: 1.5,
      measure: against('live-out', 'bash-cat'),
    },
    {
      section: 'rss',
      what: `peak RSS, ${formatSize(rssSize)} each way, live / idle \`node -e 0\``,
      target: 1.3,
      measure: against(`rss-live-${rssSize}`, 'rss-node', 'rssKiB'),
    },
    {
      section: 'rss',
      what: `peak RSS, ${formatSize(rssSize)} each way, \`--json\` / idle \`node -e 0\``,
      target: 1.3,
      measure: against(`rss-json-${rssSize}`, 'rss-node', 'rssKiB'),
    },
    {
      section: 'procs',
      what: `start-up plus teardown with ${options.idleProcesses} idle processes / quiet`,
      target: 1.1,
      measure: against('procs-busy', 'procs-quiet'),
    },
    {
      section: 'procs',
      what: 'start-up plus teardown with a pid churn loop / quiet',
      target: 1.25,
      measure: against('procs-churn', 'procs-quiet'),
      floor: against('procs-bare-churn', 'procs-bare-quiet'),
    },
    // issue 27: the hang report of a small tree within 2x the floor of a Node program (quiet machine).
    {
      section: 'inspect',
      what: '`safe-run inspect` of a 10-process tree (bash with 9 sleeps) / `node -e 0`',
      target: 2,
      measure: against('inspect-tree', 'inspect-node-0'),
    },
    {
      section: 'text',
      what: `an iteration of a \`-c\` loop of ${ITERATIONS} \`/bin/true\` / an iteration under bash`,
      measure: perUnitOf(loop, ['loop-bash-1', 'loop-bash-n'], ITERATIONS, ITERATIONS),
    },
    {
      section: 'text',
      what: `an iteration of a \`-c\` loop of ${ITERATIONS} \`/bin/true\` / one bare Node spawn`,
      measure: perUnitOf(loop, spawns, ITERATIONS, STEPS),
    },
  ];
}

const fmtRatio = (x) => (x >= 10 ? `${x.toFixed(0)}x` : `${x.toFixed(2)}x`);
const fmtValue = (key, v) => (key === 'rssKiB' ? `${(v / 1024).toFixed(1)} MiB` : formatMs(v));

// { ratio, spread: [min, max] | null, detail } or null when the cases did not run.
function evaluate(measure, sections) {
  const section = sections.find(({ results }) =>
    results.some((r) => r.case.id === (measure.id ?? measure.ids[0])),
  );
  if (!section) return null;
  const byId = new Map(section.results.map((r) => [r.case.id, r]));
  if (measure.kind === 'cases') {
    const a = byId.get(measure.id);
    const b = byId.get(measure.baseId);
    if (!a || !b) return null;
    const ratios = pairedRatios(a.samples, b.samples, measure.key);
    if (ratios.length === 0) return null;
    const value = (r) => median(r.samples.filter(Boolean).map((s) => s[measure.key]));
    return {
      ratio: median(ratios),
      spread: range(ratios),
      detail: `${fmtValue(measure.key, value(a))} / ${fmtValue(measure.key, value(b))}`,
    };
  }
  const mine = perUnit(section, ...measure.ids, measure.count);
  const base = perUnit(section, ...measure.baseIds, measure.baseCount);
  const ratios = mine.flatMap((x, i) => (x !== null && base[i] > 0 ? [x / base[i]] : []));
  const [a, b] = [median(mine), median(base)];
  if (a === null || b === null || b <= 0) return null;
  return { ratio: a / b, spread: range(ratios), detail: `${a.toFixed(2)} ms / ${b.toFixed(2)} ms` };
}

function ratioRow(goal, sections, ran) {
  if (!ran.has(goal.section))
    return [goal.what, targetText(goal), `not run (section ${goal.section})`, '', ''];
  const got = evaluate(goal.measure, sections);
  if (!got) {
    const met = goal.target === undefined ? '' : 'not met';
    return [goal.what, targetText(goal), 'no samples (failed runs, or no cost above the noise)', '', met];
  }
  const spread = got.spread ? ` (${fmtRatio(got.spread[0])}–${fmtRatio(got.spread[1])})` : '';
  const floor = goal.floor ? evaluate(goal.floor, sections) : null;
  const floorText = floor ? `; with no safe-run code: ${fmtRatio(floor.ratio)}` : '';
  const met = goal.target === undefined ? '' : got.ratio <= goal.target ? 'met' : 'not met';
  return [goal.what, targetText(goal), `${fmtRatio(got.ratio)}${spread}`, `${got.detail}${floorText}`, met];
}

const targetText = (goal) => (goal.target === undefined ? 'no goal set' : `≤ ${goal.target.toFixed(2)}x`);

// issue 23: a loop of 10,000 iterations gives "a report of at most a few hundred KB".
const REPORT_TARGET_BYTES = 500 * 1000;

function reportRow(size) {
  const what = 'size of the `--json` report of a `-c` loop of 10,000 `true`';
  const target = `≤ ${REPORT_TARGET_BYTES / 1000} KB`;
  if (!size) return [what, target, 'not run (section text)', '', ''];
  if (size.error) return [what, target, size.error, '', 'not met'];
  const met = size.bytes <= REPORT_TARGET_BYTES ? 'met' : 'not met';
  return [
    what,
    target,
    `${(size.bytes / 1000).toFixed(1)} KB`,
    `${size.stages} stage entries; took ${formatMs(size.ms)}`,
    met,
  ];
}

// issue 24: a warm `run` of `true`, and a 3-step list, in at most 2x `bash -c`; a start under 300 ms
// on a quiet machine.
function mcpRows(mcp) {
  const rows = [
    ['MCP: a warm `run` call of `true` / `bash -c true`', 'true', 2],
    ['MCP: a warm `run` call of a 3-step list / `bash -c` of it', 'echo one; echo two; echo three', 2],
  ];
  const start = ['MCP: server start to the answer of `tools/list`', '≤ 300 ms (quiet machine)'];
  if (!mcp)
    return [
      ...rows.map(([what, , t]) => [what, `≤ ${t.toFixed(2)}x`, 'not run (section mcp)', '', '']),
      [...start, 'not run (section mcp)', '', ''],
    ];
  const out = rows.map(([what, line, target]) => {
    const row = mcp.lines.find((l) => l.line === line);
    if (!row) return [what, `≤ ${target.toFixed(2)}x`, 'not measured', '', ''];
    const ratios = row.mcp.map((x, i) => x / row.bash[i]);
    const ratio = median(ratios);
    const [lo, hi] = range(ratios);
    const detail = `${formatMs(median(row.mcp))} / ${formatMs(median(row.bash))}`;
    return [
      what,
      `≤ ${target.toFixed(2)}x`,
      `${fmtRatio(ratio)} (${fmtRatio(lo)}–${fmtRatio(hi)})`,
      detail,
      ratio <= target ? 'met' : 'not met',
    ];
  });
  const startMs = median(mcp.startups);
  const [lo, hi] = range(mcp.startups);
  const startDetail = `${mcp.startups.length} starts, load ${mcp.load}`;
  out.push([
    ...start,
    `${formatMs(startMs)} (${formatMs(lo)}–${formatMs(hi)})`,
    startDetail,
    startMs <= 300 ? 'met' : 'not met',
  ]);
  return out;
}

// sections: what ran ([{ section, results }]); extras: { reportSize, mcp } (null when not run).
export function renderGoals(sections, options, extras) {
  const ran = new Set(sections.map(({ section }) => section.id));
  const rows = [
    ...goalList(options).map((goal) => ratioRow(goal, sections, ran)),
    reportRow(extras.reportSize),
    ...mcpRows(extras.mcp),
    ...limitRows(sections, ran),
  ];
  const header = ['goal', 'target', 'measured: median (min–max over rounds)', 'medians compared', 'met'];
  const cell = (text) => String(text).replaceAll('|', '\\|');
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  return `Goals (issue 28; issue 27 for inspect; issues 23, 24 and 26 for the last rows):\n\n${lines.join('\n')}\n`;
}
