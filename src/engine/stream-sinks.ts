import path from 'node:path';
import { HeadTailKeeper, type KeptStream, omissionMarker } from '../capture/head-tail.js';
import { LinePrefixer } from '../capture/line-prefixer.js';
import { LiveCap } from '../capture/live-cap.js';
import { StreamLog, type StreamLogResult } from '../capture/log-file.js';
import { StreamMasker } from '../capture/mask.js';
import { RecentLine } from '../capture/recent-line.js';
import { formatBytes } from '../format-units.js';
import type { Settings, StreamReport } from '../types.js';
import { ChunkPool } from './chunk-pool.js';

export interface SinkOptions {
  // What is kept for the report, head and tail.
  cap: number;
  secrets: readonly string[];
  live: NodeJS.WritableStream | null;
  // Stage name prefixed to each live line, or null to stream bytes as they come.
  prefix: string | null;
  // Text put before each live line (a timestamp); when set, the stream goes out as whole lines.
  linePrefix?: (() => string) | null;
  // False for the last stage's stdout unless --live-stdout capped: the pipeline's product streams whole.
  capLive: boolean;
  label: string;
  settings: Settings;
  logName: string;
  onBytes: (chunk: Buffer) => void;
  onCapExceeded: () => void;
  onLogProblem?: (problem: string) => void;
  // False for the product stream (the last stage's stdout streamed whole): shown unmasked.
  maskLive?: boolean;
  // Stderr: end the live view with a newline if the stage did not (never done to stdout, the product).
  endLiveLine?: boolean;
}

export interface StreamSinks {
  push(chunk: Buffer): void;
  // Stop streaming live (safe-run's own output went away); capture and logs go on.
  detachLive(): void;
  // The stream reached EOF: flush held bytes, and show the tail of a stream whose live view was capped.
  end(): void;
  // Resolves once the log file (if any) is closed; call before finish().
  settled(): Promise<void>;
  // How to pause and resume the source when the log's disk falls behind.
  setFlowControl(pause: () => void, resume: () => void): void;
  // True while reading is paused because safe-run's own output or the log's disk is behind.
  readonly held: boolean;
  // Resolves when reading is no longer paused.
  released(): Promise<void>;
  finish(): StreamReport;
  // For a progress display while the stage runs: bytes so far and the last line (masked).
  progress(): { bytes: number; lastLine: string | null; at: number | null };
}

// Everything one stream's bytes go to, in order: the count and head/tail kept for the report, the
// whole-stream log, and the live display. Secrets are masked before anything is written anywhere.
export function createStreamSinks(options: SinkOptions): StreamSinks {
  const keeper = new HeadTailKeeper(options.cap, options.secrets);
  const needsMasked =
    (options.live !== null && options.maskLive !== false) || options.settings.logDir !== null;
  const masker = needsMasked && options.secrets.length > 0 ? new StreamMasker(options.secrets) : null;
  const log = options.settings.logDir
    ? new StreamLog(path.join(options.settings.logDir, options.logName), options.settings.maxLog, {
        exclusive: true,
      })
    : null;
  let live = options.live;
  const name = options.prefix === null ? '' : `[${options.prefix}] `;
  const stamp = options.linePrefix;
  const prefixer =
    live && (options.prefix !== null || stamp) ? new LinePrefixer(stamp ? () => stamp() + name : name) : null;
  const recent = new RecentLine(512, options.secrets);
  const liveCap = live && options.capLive ? new LiveCap(options.cap, options.label) : null;
  let bytes = 0;
  let kept: KeptStream | null = null;
  let saved: StreamLogResult | null = null;
  let closing: Promise<void> = Promise.resolve();
  let flow: { pause: () => void; resume: () => void } | null = null;
  // Why reading is paused: the log's disk, safe-run's own stdout/stderr, or both. Reading resumes
  // only when neither holds it any more.
  const holds = new Set<'log' | 'live'>();
  let onRelease: (() => void)[] = [];
  const hold = (why: 'log' | 'live'): boolean => {
    if (!flow || holds.has(why)) return false;
    if (holds.size === 0) flow.pause();
    holds.add(why);
    return true;
  };
  const releaseHold = (why: 'log' | 'live'): void => {
    if (!holds.delete(why) || holds.size > 0) return;
    flow?.resume();
    const waiting = onRelease;
    onRelease = [];
    for (const resolve of waiting) resolve();
  };
  const pool = new ChunkPool();
  let lastLiveByte: number | null = null;
  let finished: StreamReport | null = null;

  // The reader reuses its buffer, so whatever may hold on to a chunk gets a copy: the log (it
  // queues) and the live stream (a write to a full pipe completes later).
  const toLog = (masked: Buffer) => {
    if (log && masked.length > 0 && !log.write(Buffer.from(masked)) && hold('log')) {
      void log.drained().then(() => releaseHold('log'));
    }
  };
  const toLive = (bytes: Buffer, end: boolean) => {
    if (!live) return;
    let out = liveCap ? liveCap.push(bytes) : bytes;
    if (prefixer) out = end ? Buffer.concat([prefixer.push(out), prefixer.flush()]) : prefixer.push(out);
    if (out.length > 0) {
      lastLiveByte = out[out.length - 1]!;
      const { view, release: giveBack } = pool.copy(out);
      // Backpressure: a slow reader of safe-run's output slows the stage, as it would in a shell.
      if (!live.write(view, giveBack) && hold('live')) live.once('drain', () => releaseHold('live'));
    }
  };
  // The product (the last stage's stdout, streamed whole) goes out byte for byte: masking it would
  // corrupt data (a dump or an archive that contains the value). Everything else is masked.
  const maskLive = options.maskLive !== false;

  return {
    push(chunk) {
      bytes += chunk.length;
      recent.push(chunk);
      options.onBytes(chunk);
      keeper.push(chunk);
      if (bytes > options.cap && bytes - chunk.length <= options.cap) options.onCapExceeded();
      if (!log && !live) return;
      const masked = masker ? masker.push(chunk) : chunk;
      toLog(masked);
      toLive(maskLive ? masked : chunk, false);
    },
    detachLive() {
      live = null;
      releaseHold('live');
    },
    end() {
      if (kept) return;
      const rest = masker ? masker.flush() : Buffer.alloc(0);
      toLog(rest);
      toLive(maskLive ? rest : Buffer.alloc(0), true);
      // What safe-run prints next (its table) starts on a line of its own.
      if (live && options.endLiveLine && lastLiveByte !== null && lastLiveByte !== 0x0a) live.write('\n');
      kept = keeper.finish();
      if (log) {
        closing = log.close().then((result) => {
          saved = result;
        });
      }
      const hidden = liveCap?.finish() ?? 0;
      if (live && hidden > 0 && kept.text !== null) {
        const tail = tailOf(kept, hidden);
        if (tail.length > 0) {
          const note = `[safe-run: the last ${formatBytes(tail.length)} of ${options.label}:]\n`;
          const body = prefixer ? Buffer.concat([prefixer.push(tail), prefixer.flush()]) : tail;
          live.write(Buffer.concat([Buffer.from(note), body]));
        }
      }
    },
    settled() {
      return closing;
    },
    setFlowControl(pause, resume) {
      flow = { pause, resume };
    },
    get held() {
      return holds.size > 0;
    },
    released() {
      return holds.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => onRelease.push(resolve));
    },
    progress() {
      return { bytes, lastLine: recent.lastLine(), at: recent.at };
    },
    finish() {
      if (finished) return finished;
      this.end();
      if (saved?.error) options.onLogProblem?.(`${saved.path}: ${saved.error}`);
      const log = saved as StreamLogResult | null;
      // A log that could not even be created is not a place to look.
      const logFile = log && !(log.error && log.bytesWritten === 0) ? log.path : null;
      finished = { ...kept!, bytes, logFile };
      return finished;
    },
  };
}

// The end of the kept text that was not shown live: at most `hidden` bytes, from a line start.
function tailOf(kept: KeptStream, hidden: number): Buffer {
  const text = kept.text ?? '';
  const marker = omissionMarker(kept.omittedBytes);
  const at = kept.truncated ? text.lastIndexOf(marker) : -1;
  const tail = Buffer.from(at === -1 ? text : text.slice(at + marker.length));
  if (tail.length <= hidden) return tail;
  const from = tail.indexOf(0x0a, tail.length - hidden);
  return from === -1 ? Buffer.alloc(0) : tail.subarray(from + 1);
}
