// node --expose-gc scripts/bench/capture-throughput.mjs [GiB]
//
// Throughput of the capture building blocks (src/capture/) on GiB of synthetic 64 KiB chunks, each
// as a ratio to a plain memcpy of the same chunks in the same run, with the RSS growth over the run
// (it must stay flat: every block holds a bounded amount of memory whatever the stream length).
// In-process only: what safe-run costs end to end, against the shell, is `npm run bench`
// (docs/benchmarks.md). Figures are MB/s (10^6 bytes per second). Results: docs/output.md.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// The blocks are TypeScript: bundle them once into a scratch module and import that.
const scratchDir = mkdtempSync(join(tmpdir(), 'safe-run-capture-bench-'));
const bundle = join(scratchDir, 'capture.mjs');
const capture = fileURLToPath(new URL('../../src/capture/', import.meta.url));
await build({
  stdin: {
    contents: ['head-tail', 'line-prefixer', 'live-cap', 'log-file', 'mask']
      .map((name) => `export * from ${JSON.stringify(join(capture, `${name}.ts`))};`)
      .join('\n'),
    resolveDir: capture,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: bundle,
  logLevel: 'warning',
});
const { HeadTailKeeper, LinePrefixer, LiveCap, StreamLog, StreamMasker } = await import(
  pathToFileURL(bundle).href
);

const CHUNK = 64 * 1024;
const TOTAL = Math.round(Number(process.argv[2] ?? '1') * 1024 ** 3);
const COUNT = Math.ceil(TOTAL / CHUNK);

function logLines(seed) {
  let text = '';
  for (let i = 0; text.length < CHUNK; i += 1) {
    text += `2025-01-01T00:00:${String((seed + i) % 60).padStart(2, '0')}Z WARN worker-${i % 7} processed item ${seed * 1000 + i} in ${i % 97}ms\n`;
  }
  return Buffer.from(text.slice(0, CHUNK));
}

// Sixteen different chunks, cycled: realistic text, no allocation inside the timed loops.
const TEXT = Array.from({ length: 16 }, (_, i) => logLines(i));
const ONE_LINE = Array.from({ length: 16 }, () => Buffer.alloc(CHUNK, 'x'));
const SECRETS = [
  'ghp_R4nd0mT0k3nV4lu3F0rB3nchm4rk1ngXyZ12',
  'AKIAIOSFODNN7EXAMPLEwJalrXUtnFEMI/K7MDENG',
  'correct-horse-battery-staple',
];
const MANY_SECRETS = Array.from({ length: 20 }, (_, i) => `secret-value-${i}-${'q'.repeat(i)}`);
// What a CI runner's environment looks like: a few dozen opaque tokens.
const CI_TOKENS = Array.from(
  { length: 30 },
  (_, i) => `ghs_${(i * 7919).toString(36)}${'0123456789abcdefghijKLMNOPQRST'.slice(i)}`,
);
// Random bytes: binary output, and the worst case for a first-byte filter.
const RANDOM = Array.from({ length: 16 }, (_, i) => {
  const chunk = Buffer.allocUnsafe(CHUNK);
  let x = 2463534242 + i;
  for (let j = 0; j < CHUNK; j += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    chunk[j] = x & 0xff;
  }
  return chunk;
});

// A row: name, mbPerSecond, rssGrowthMiB, and retainedKiB (JS heap and Buffer memory still
// reachable after the run and a full GC).
const gc = globalThis.gc;
if (!gc) process.stderr.write('run with node --expose-gc for the retained-memory column\n');

function measure(name, chunks, run, end = () => {}) {
  gc?.();
  const before = process.memoryUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < COUNT; i += 1) run(chunks[i % chunks.length]);
  end();
  return row(name, started, before);
}

// The log writes asynchronously: the loop honours its backpressure as the engine would.
async function measureLog(name, log) {
  gc?.();
  const before = process.memoryUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < COUNT; i += 1) if (!log.write(TEXT[i % TEXT.length])) await log.drained();
  const result = await log.close();
  if (result.error || result.droppedBytes > 0)
    throw new Error(`log: ${result.error}, ${result.droppedBytes} dropped`);
  return row(name, started, before);
}

function row(name, started, before) {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  gc?.();
  const after = process.memoryUsage();
  return {
    name,
    mbPerSecond: (COUNT * CHUNK) / 1e6 / seconds,
    rssGrowthMiB: (after.rss - before.rss) / 1024 ** 2,
    retainedKiB: (after.heapUsed + after.external - before.heapUsed - before.external) / 1024,
  };
}

const scratch = Buffer.allocUnsafe(CHUNK);
const dir = mkdtempSync(join(tmpdir(), 'safe-run-bench-'));
const rows = [];
try {
  rows.push(measure('baseline: memcpy of each chunk', TEXT, (chunk) => void chunk.copy(scratch)));

  const keeper = new HeadTailKeeper(32 * 1024);
  rows.push(
    measure(
      'HeadTailKeeper(32 KiB)',
      TEXT,
      (chunk) => keeper.push(chunk),
      () => void keeper.finish(),
    ),
  );
  const bigKeeper = new HeadTailKeeper(10 * 1024 * 1024, SECRETS);
  rows.push(
    measure(
      'HeadTailKeeper(10 MiB, 3 secrets)',
      TEXT,
      (chunk) => bigKeeper.push(chunk),
      () => void bigKeeper.finish(),
    ),
  );

  const none = new StreamMasker([]);
  rows.push(measure('StreamMasker, no secrets', TEXT, (chunk) => void none.push(chunk)));
  const three = new StreamMasker(SECRETS);
  rows.push(measure('StreamMasker, 3 secrets', TEXT, (chunk) => void three.push(chunk)));
  const twenty = new StreamMasker(MANY_SECRETS);
  rows.push(measure('StreamMasker, 20 similar secrets', TEXT, (chunk) => void twenty.push(chunk)));
  const ci = new StreamMasker(CI_TOKENS);
  rows.push(measure('StreamMasker, 30 tokens', TEXT, (chunk) => void ci.push(chunk)));
  rows.push(measure('StreamMasker, 30 tokens, random bytes', RANDOM, (chunk) => void ci.push(chunk)));
  const binaryKeeper = new HeadTailKeeper(32 * 1024);
  rows.push(
    measure(
      'HeadTailKeeper(32 KiB), random bytes',
      RANDOM,
      (chunk) => binaryKeeper.push(chunk),
      () => void binaryKeeper.finish(),
    ),
  );
  const adversarial = new StreamMasker([`${'x'.repeat(4095)}y`]);
  rows.push(
    measure('StreamMasker, 4 KiB secret vs "xxxx..."', ONE_LINE, (chunk) => void adversarial.push(chunk)),
  );

  const prefixer = new LinePrefixer('[grep] ');
  rows.push(measure('LinePrefixer, ~75-byte lines', TEXT, (chunk) => void prefixer.push(chunk)));
  const longLines = new LinePrefixer('[grep] ');
  rows.push(measure('LinePrefixer, one endless line', ONE_LINE, (chunk) => void longLines.push(chunk)));

  const open = new LiveCap(Number.MAX_SAFE_INTEGER, 'bench');
  rows.push(measure('LiveCap, under the cap', TEXT, (chunk) => void open.push(chunk)));
  const capped = new LiveCap(32 * 1024, 'bench');
  rows.push(measure('LiveCap(32 KiB), past the cap', TEXT, (chunk) => void capped.push(chunk)));

  rows.push(
    await measureLog('StreamLog, whole stream to tmpdir', new StreamLog(join(dir, 'whole.log'), Infinity)),
  );
  rmSync(join(dir, 'whole.log'));
  if (existsSync('/dev/shm')) {
    // The same without a disk: what the writes themselves cost.
    const shm = mkdtempSync('/dev/shm/safe-run-bench-');
    try {
      rows.push(
        await measureLog(
          'StreamLog, whole stream to /dev/shm',
          new StreamLog(join(shm, 'whole.log'), Infinity),
        ),
      );
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  }
  rows.push(
    await measureLog('StreamLog(100 MiB)', new StreamLog(join(dir, 'capped.log'), 100 * 1024 * 1024)),
  );

  // The chain one captured stderr goes through when everything is on.
  const chain = {
    keeper: new HeadTailKeeper(32 * 1024, SECRETS),
    masker: new StreamMasker(SECRETS),
    log: new StreamLog(join(dir, 'chain.log'), 100 * 1024 * 1024),
    live: new LiveCap(32 * 1024, 'bench'),
    prefixer: new LinePrefixer('[grep] '),
  };
  {
    gc?.();
    const before = process.memoryUsage();
    const started = process.hrtime.bigint();
    for (let i = 0; i < COUNT; i += 1) {
      const chunk = TEXT[i % TEXT.length];
      chain.keeper.push(chunk);
      const masked = chain.masker.push(chunk);
      chain.prefixer.push(chain.live.push(masked));
      if (!chain.log.write(masked)) await chain.log.drained();
    }
    chain.keeper.finish();
    await chain.log.close();
    rows.push(row('all of it: keep + mask + log(100 MiB) + live cap + prefix', started, before));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(scratchDir, { recursive: true, force: true });
}

const baseline = rows[0].mbPerSecond;
console.log(`${(COUNT * CHUNK) / 1024 ** 3} GiB in ${COUNT} chunks of 64 KiB, node ${process.version}`);
for (const row of rows) {
  const ratio = (row.mbPerSecond / baseline).toFixed(2);
  console.log(
    `${row.name.padEnd(58)} ${row.mbPerSecond.toFixed(0).padStart(7)} MB/s  x${ratio.padEnd(5)} RSS ${row.rssGrowthMiB.toFixed(1).padStart(5)} MiB  retained ${row.retainedKiB.toFixed(0).padStart(6)} KiB`,
  );
}
