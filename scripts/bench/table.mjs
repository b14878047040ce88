// The markdown the benchmark prints: a header about the machine, one table of medians and ratios,
// and the failures with the command that reproduces each.
import { formatMs } from './rounds.mjs';

const HEADER = [
  'Case',
  'Command',
  'Runs',
  'Wall (median)',
  'Wall (min–max)',
  'MiB/s',
  'CPU (median)',
  'Peak RSS',
  'Wall ratio',
  'CPU ratio',
  'RSS ratio',
];

const cell = (text) => String(text).replaceAll('|', '\\|');

function formatRatio(value) {
  if (value === null) return 'n/a';
  return value >= 10 ? `${value.toFixed(0)}x` : `${value.toFixed(2)}x`;
}

function formatRss(kib) {
  return kib === null ? 'n/a' : `${(kib / 1024).toFixed(1)} MiB`;
}

function throughput(summary) {
  if (summary.bytes === null || !summary.wallMs) return '';
  return ((summary.bytes / (1024 * 1024)) * (1000 / summary.wallMs)).toFixed(0);
}

function ratios(summary, key) {
  if (summary.ratios.length === 0) return 'base';
  return summary.ratios.map((r) => `${formatRatio(r[key])} ${r.to}`).join(', ');
}

function row(sectionId, kase, summary) {
  const runs = summary.failures > 0 ? `${summary.runs} (+${summary.failures} FAILED)` : summary.runs;
  const [low, high] = summary.wallRange ?? [null, null];
  return [
    `${sectionId}: ${kase.label}`,
    `\`${kase.display}\``,
    runs,
    formatMs(summary.wallMs),
    summary.wallRange ? `${formatMs(low)}–${formatMs(high)}` : 'n/a',
    throughput(summary),
    formatMs(summary.cpuMs),
    formatRss(summary.rssKiB),
    ratios(summary, 'wall'),
    ratios(summary, 'cpu'),
    ratios(summary, 'rss'),
  ].map(cell);
}

export function renderHeader(machine, options) {
  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  return [
    `safe-run benchmark, ${options.quick ? 'quick' : 'full'} run`,
    '',
    `- date: ${machine.date}`,
    `- node: ${machine.node}; ${machine.cores} cores (${machine.cpuModel}); kernel ${machine.kernel}`,
    `- load average (1, 5, 15 min) at start: ${load(machine.loadStart)}; at end: ${load(machine.loadEnd)}`,
    `- safe-run measured: ${machine.build}`,
    `- CPU and peak RSS: ${machine.usageSource}`,
    '',
  ].join('\n');
}

// sections: [{ section, results, summaries }]
export function renderTable(sections) {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const { section, results, summaries } of sections) {
    for (const [i, result] of results.entries()) {
      lines.push(`| ${row(section.id, result.case, summaries[i]).join(' | ')} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function renderFailures(sections) {
  const lines = [];
  for (const { section, results } of sections) {
    for (const result of results) {
      for (const failure of result.failures) {
        lines.push(
          `- ${section.id}: ${result.case.label}, round ${failure.round}: ${failure.problem}\n` +
            `  reproduce: \`${result.case.display}\``,
        );
      }
    }
  }
  return lines.length === 0 ? '' : `\nFailures:\n\n${lines.join('\n')}\n`;
}
