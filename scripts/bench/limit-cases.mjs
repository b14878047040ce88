// Time limits against coreutils `timeout` (issue 26): how long after its limit each returns, in the
// same rounds. The goal is an excess, not a ratio: safe-run's overshoot at most timeout's plus 300 ms,
// measured under ../shared/tools/under-load (`npm run bench -- --only limits` inside it).

import { make, SR } from './cases.mjs';
import { formatMs } from './rounds.mjs';
import { median, range } from './stats.mjs';

const LIMITED = { codes: [124], stdout: 'null', stderr: 'null' };
const EXCESS_TARGET_MS = 300;

export function limitsSection() {
  return {
    id: 'limits',
    title: '8. Time limits: the return after the limit, against coreutils timeout',
    cases: [
      make('limit-timeout', 'timeout 1 sleep', ['timeout', '1', 'sleep', '30'], LIMITED),
      make('limit-sr', 'safe-run 1s sleep', [SR, '-q', '--timeout', '1s', '--', 'sleep', '30'], {
        ...LIMITED,
        vs: ['limit-timeout'],
      }),
      // A writer blocked on a pipe its reader never reads.
      make('unread-timeout', 'timeout 2 yes|sleep', ['timeout', '2', 'sh', '-c', 'yes | sleep 12'], LIMITED),
      make('unread-sr', 'safe-run 2s yes|sleep', [SR, '-q', '--timeout', '2s', '-c', 'yes | sleep 12'], {
        ...LIMITED,
        vs: ['unread-timeout'],
      }),
    ],
  };
}

const PAIRS = [
  ["a 1 s limit on `sleep 30`: safe-run's return after the limit - timeout's", 'limit-sr', 'limit-timeout'],
  [
    "a 2 s limit on `yes | sleep 12`: safe-run's return after the limit - timeout's",
    'unread-sr',
    'unread-timeout',
  ],
];

// One row per pair: the median over rounds of (safe-run's wall - timeout's wall) in the same round,
// which is the difference of their overshoots (the limit is the same).
export function limitRows(sections, ran) {
  const target = `≤ +${EXCESS_TARGET_MS} ms`;
  if (!ran.has('limits')) return PAIRS.map(([what]) => [what, target, 'not run (section limits)', '', '']);
  const results = sections.find(({ section }) => section.id === 'limits').results;
  const byId = new Map(results.map((r) => [r.case.id, r]));
  return PAIRS.map(([what, id, baseId]) => {
    const a = byId.get(id)?.samples ?? [];
    const b = byId.get(baseId)?.samples ?? [];
    const excess = a.flatMap((x, round) => (x && b[round] ? [x.wallMs - b[round].wallMs] : []));
    if (excess.length === 0) return [what, target, 'no samples (failed runs)', '', 'not met'];
    const wall = (samples) => formatMs(median(samples.filter(Boolean).map((s) => s.wallMs)));
    const [lo, hi] = range(excess);
    const value = median(excess);
    return [
      what,
      target,
      `${value >= 0 ? '+' : ''}${formatMs(value)} (${formatMs(lo)}–${formatMs(hi)})`,
      `${wall(a)} / ${wall(b)}`,
      value <= EXCESS_TARGET_MS ? 'met' : 'not met',
    ];
  });
}
