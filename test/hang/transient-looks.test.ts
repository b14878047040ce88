import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HangReport } from '../../src/hang/hang-report.js';
import { FIXTURES } from '../helpers/cli.js';
import { lookAt, treeStarter } from './helpers.js';

// "Never a false deadlock" (issue 27): looks taken while processes start, connect, accept, fork and
// exit. A look that caught a connection before its accept, or a shell's child moving a pipe onto its
// stdout, used to claim a deadlock (a socket or pipe "only it can write"): every claim here must be
// the settled truth, or none.

const start = treeStarter();

function claimOf(look: HangReport): string | null {
  const { deadlock } = look;
  return deadlock && `${deadlock.kind} [${deadlock.pids.join(', ')}]: ${deadlock.explanation}`;
}

// Lets the processes looked at (and vitest) run between two looks.
const pause = () => new Promise((resolve) => setImmediate(resolve));

const hasPython = spawnSync('sh', ['-c', 'command -v python3']).status === 0;

describe.skipIf(!hasPython)('looks while a TCP server and its client connect', () => {
  // Connections made before the last one: in each the client waits on a socket the server has not
  // accepted yet, then accepted a moment ago (tcp-pair.py). Looks go on until the pair settles; the
  // bound only stops a hang (each round takes the server at least 10 ms, far longer than a look).
  const ROUNDS = 100;
  const MAX_LOOKS = ROUNDS * 100;

  it('claim nothing until the pair settles, then the pair', async () => {
    const root = start('python3', [path.join(FIXTURES, 'hang', 'tcp-pair.py'), String(ROUNDS)]);
    const claims: string[] = [];
    let settled: HangReport | null = null;
    let looks = 0;
    // Settled: both ends of the last connection in recv, the two of them a deadlock (as asserted in
    // wait-kinds.test.ts); no look before could claim both, the server being busy accepting.
    while (settled === null && looks < MAX_LOOKS) {
      const look = lookAt(root);
      looks += 1;
      const claim = claimOf(look);
      if (claim) claims.push(claim);
      const pair = look.deadlock?.kind === 'silent-peer' && look.deadlock.pids.length === 2;
      if (pair && look.processes.length === 2) settled = look;
      await pause();
    }
    expect(settled, `no settled pair after ${looks} looks`).not.toBeNull();
    const truth = claimOf(settled!);
    expect(claims.filter((claim) => claim !== truth)).toEqual([]);
    // The settled deadlock is claimed at every look from then on.
    for (let i = 0; i < 5; i += 1) expect(claimOf(lookAt(root))).toBe(truth);
  }, 120_000);
});

describe("looks while a shell's command substitutions come and go", () => {
  const LOOKS = 400;

  it('claim no deadlock: the shell reads a pipe whose writer is its passing child', async () => {
    const root = start('bash', ['-c', 'while :; do x=$(/bin/true); done']);
    const claims: string[] = [];
    let withChild = 0;
    for (let i = 0; i < LOOKS; i += 1) {
      const look = lookAt(root);
      const claim = claimOf(look);
      if (claim) claims.push(claim);
      if (look.processes.length > 1) withChild += 1;
      await pause();
    }
    expect(claims).toEqual([]);
    // The looks did catch children in passing.
    expect(withChild).toBeGreaterThan(0);
  }, 120_000);
});
