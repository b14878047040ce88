// Medians and ratios of the samples a case collected.

export function median(values) {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function range(values) {
  const kept = values.filter((v) => v !== null && Number.isFinite(v));
  return kept.length === 0 ? null : [Math.min(...kept), Math.max(...kept)];
}

// Per round, a's sample divided by b's sample from the same round. Both ran within seconds of each
// other, so a change in the machine's load during the run mostly cancels out. Rounds where either
// failed are left out.
export function pairedRatios(a, b, key) {
  const ratios = [];
  for (const [round, sampleA] of a.entries()) {
    const sampleB = b[round];
    if (!sampleA || !sampleB) continue;
    const x = sampleA[key];
    const y = sampleB[key];
    if (x === null || y === null || y === 0 || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    ratios.push(x / y);
  }
  return ratios;
}

// The median over rounds of pairedRatios.
export function pairedRatio(a, b, key) {
  return median(pairedRatios(a, b, key));
}

// Everything the table shows about one case.
export function summarize(result, byId) {
  const ok = result.samples.filter(Boolean);
  const wall = ok.map((s) => s.wallMs);
  const summary = {
    id: result.case.id,
    runs: ok.length,
    failures: result.failures.length,
    wallMs: median(wall),
    wallRange: range(wall),
    cpuMs: median(ok.map((s) => s.cpuMs)),
    rssKiB: median(ok.map((s) => s.rssKiB)),
    bytes: result.case.bytes ?? null,
    ratios: [],
  };
  for (const ref of result.case.vs ?? []) {
    const other = byId.get(ref);
    if (!other) continue;
    summary.ratios.push({
      to: other.case.label,
      wall: pairedRatio(result.samples, other.samples, 'wallMs'),
      cpu: pairedRatio(result.samples, other.samples, 'cpuMs'),
      rss: pairedRatio(result.samples, other.samples, 'rssKiB'),
    });
  }
  return summary;
}
