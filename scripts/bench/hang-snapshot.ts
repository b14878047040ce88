// How long a hang report takes for a tree of N processes: N-1 pipelines of `yes | sleep` under one
// shell, half of them blocked writers. Run: node scripts/bench/hang-snapshot.mjs [N...]
import { spawn } from 'node:child_process';
import { buildHangReport } from '../../src/hang/hang-report.js';
import { findTree, readTree } from '../../src/hang/read-tree.js';

async function measure(pairs: number): Promise<void> {
  const script = `${Array.from({ length: pairs }, () => 'yes | sleep 600 &').join(' ')} wait`;
  const root = spawn('sh', ['-c', script], { stdio: 'ignore', detached: true });
  const expected = 1 + 2 * pairs;
  while (findTree(root.pid!).length < expected) await new Promise((resolve) => setTimeout(resolve, 50));
  const times: number[] = [];
  let size = 0;
  let phases = '';
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const members = new Map(findTree(root.pid!).map((pid) => [pid, null]));
    const t1 = performance.now();
    const data = readTree(members, null);
    const t2 = performance.now();
    const report = buildHangReport(data);
    const t3 = performance.now();
    times.push(t3 - t0);
    phases = `find ${(t1 - t0).toFixed(1)}, read ${(t2 - t1).toFixed(1)}, graph ${(t3 - t2).toFixed(1)} ms`;
    size = report.processes.length;
  }
  process.kill(-root.pid!, 'SIGKILL');
  times.sort((a, b) => a - b);
  console.log(
    `${size} processes: median ${times[2]!.toFixed(1)} ms, min ${times[0]!.toFixed(1)} ms (5 runs; last: ${phases})`,
  );
}

for (const n of process.argv.slice(2).map(Number)) await measure(n);
