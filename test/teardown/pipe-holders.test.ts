import { closeSync, readSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { findPipeHolders } from '../../src/teardown/pipe-holders.js';
import { findByMarker } from '../../src/teardown/proc-scan.js';
import {
  exited,
  killEverything,
  makePipe as makeFifoPipe,
  newMarker,
  spawnStage,
  teardownFixture,
  waitFor,
} from '../helpers/index.js';

let marker = newMarker();
const openFds: number[] = [];

afterEach(async () => {
  await killEverything(marker);
  for (const fd of openFds.splice(0)) closeSync(fd);
  marker = newMarker();
});

// A pipe whose read end the test closes afterwards (its write end goes to the stage or is closed).
function makePipe(): { reader: number; writer: number } {
  const pipe = makeFifoPipe();
  openFds.push(pipe.reader);
  return pipe;
}

// The classic hang: `sh -c 'sleep 300 & echo hi'` exits, its background sleep keeps stdout open.
async function startHolder(reader: number, writer: number) {
  const leader = spawnStage(['/bin/sh', teardownFixture('holder.sh')], marker, {
    stdio: ['ignore', writer, 'ignore'],
  });
  closeSync(writer);
  expect(await exited(leader)).toBe(0);
  const text = Buffer.alloc(16);
  expect(text.toString('utf8', 0, readSync(reader, text))).toBe('hi\n');
  // Until it execs, the background child is a copy of the sh: wait for it to be the sleep.
  await waitFor('the background sleep', () =>
    findByMarker(marker.name, marker.value).some((p) => p.command === 'sleep 300' && p.pgid === leader.pid),
  );
  return leader;
}

describe('findPipeHolders', () => {
  it('names the background sleep of an exited sh as the holder of the write end', async () => {
    const { reader, writer } = makePipe();
    const leader = await startHolder(reader, writer);
    const holders = findPipeHolders(reader);
    expect(holders).toHaveLength(1);
    expect(holders[0]).toMatchObject({ command: 'sleep 300', fds: [1], pgid: leader.pid });
  });

  it('finds the same holder among the marked candidates without scanning everything', async () => {
    const { reader, writer } = makePipe();
    await startHolder(reader, writer);
    const candidates = findByMarker(marker.name, marker.value).map((p) => p.pid);
    const holders = findPipeHolders(reader, { candidates });
    expect(holders.map((p) => p.pid)).toEqual(candidates);
  });

  it('tells the read end from the write end', async () => {
    const { reader, writer } = makePipe();
    const other = spawnStage(['sleep', '300'], marker, { stdio: [reader, 'ignore', 'ignore'] });
    await waitFor('the reader to exec', () => findByMarker(marker.name, marker.value).length === 1);
    await startHolder(reader, writer);
    const readers = findPipeHolders(reader, { end: 'read' });
    expect(readers.map((p) => [p.pid, p.fds])).toEqual([[other.pid, [0]]]);
    const writers = findPipeHolders(reader, { end: 'write' });
    expect(writers.map((p) => p.command)).toEqual(['sleep 300']);
    expect(writers[0]!.pid).not.toBe(other.pid);
    expect(findPipeHolders(reader, { end: 'any' })).toHaveLength(2);
  });

  it('finds nobody once the holder is gone, and the reader then sees EOF', async () => {
    const { reader, writer } = makePipe();
    await startHolder(reader, writer);
    const [holder] = findPipeHolders(reader);
    process.kill(holder!.pid, 'SIGKILL');
    await waitFor('the holder to let go', () => findPipeHolders(reader).length === 0);
    expect(readSync(reader, Buffer.alloc(16))).toBe(0);
  });
});
