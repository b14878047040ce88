// The figures of a measure: how many cases of each kind, the refusal groups by count, the differences.

export function summarize(results) {
  const count = (kind) => results.filter((r) => r.kind === kind).length;
  const compared = results.filter((r) => !['excluded', 'bash-varies', 'timeout'].includes(r.kind));
  const interpreted = compared.filter((r) => r.kind !== 'refused');
  const pct = (n) => `${((100 * n) / compared.length).toFixed(1)}%`;
  const lines = [
    `cases: ${results.length}; compared: ${compared.length} (not comparable: ${count('excluded')} excluded, ${count('bash-varies')} where bash varies between two runs, ${count('timeout')} timed out)`,
    `interpreted: ${interpreted.length} (${pct(interpreted.length)}): same as bash ${count('same')} (stderr worded differently in ${results.filter((r) => r.kind === 'same' && !r.stderrSame).length}), a syntax error in both ${count('syntax-error-both')}, different ${count('different')}`,
    `refused: ${count('refused')} (${pct(count('refused'))})`,
  ];
  const groups = new Map();
  for (const r of results.filter((r) => r.kind === 'refused'))
    groups.set(r.group, (groups.get(r.group) ?? 0) + 1);
  lines.push('refusal groups:');
  for (const [group, n] of [...groups].sort((a, b) => b[1] - a[1])) lines.push(`  ${n}  ${group}`);
  lines.push('different:');
  for (const r of results.filter((r) => r.kind === 'different'))
    lines.push(`  #${r.n} (line ${r.line}) ${r.differ.join(',')}: ${JSON.stringify(r.text).slice(0, 100)}`);
  return lines.join('\n');
}
