import path from 'node:path';
import { HeadTailKeeper, type KeptStream } from '../capture/head-tail.js';
import { StreamLog } from '../capture/log-file.js';
import { StreamMasker } from '../capture/mask.js';
import { RecentLine } from '../capture/recent-line.js';
import type { Settings, StreamReport } from '../types.js';
import { LiveStream } from './live-stream.js';
import { LogSink } from './log-sink.js';
import { ReadHolds } from './read-holds.js';

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

// What one stream's bytes go to, opened from the options.
function openSinks(options: SinkOptions) {
  const keeper = new HeadTailKeeper(options.cap, options.secrets);
  const needsMasked =
    (options.live !== null && options.maskLive !== false) || options.settings.logDir !== null;
  const masker = needsMasked && options.secrets.length > 0 ? new StreamMasker(options.secrets) : null;
  const log = options.settings.logDir
    ? new StreamLog(path.join(options.settings.logDir, options.logName), options.settings.maxLog, {
        exclusive: true,
      })
    : null;
  const holds = new ReadHolds();
  const logSink = log ? new LogSink(log, holds) : null;
  const live = new LiveStream(options.live, options, holds);
  const recent = new RecentLine(512, options.secrets);
  return { keeper, masker, holds, logSink, live, recent };
}

// Everything one stream's bytes go to, in order: the count and head/tail kept for the report, the
// whole-stream log, and the live display. Secrets are masked before anything is written anywhere.
export function createStreamSinks(options: SinkOptions): StreamSinks {
  const { keeper, masker, holds, logSink, live, recent } = openSinks(options);
  let bytes = 0;
  let kept: KeptStream | null = null;
  let finished: StreamReport | null = null;

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
      if (!logSink && !live.attached) return;
      const masked = masker ? masker.push(chunk) : chunk;
      logSink?.write(masked);
      live.write(maskLive ? masked : chunk, false);
    },
    detachLive() {
      live.detach();
    },
    end() {
      if (kept) return;
      const rest = masker ? masker.flush() : Buffer.alloc(0);
      logSink?.write(rest);
      live.write(maskLive ? rest : Buffer.alloc(0), true);
      if (options.endLiveLine) live.endLine();
      kept = keeper.finish();
      logSink?.close();
      live.showTail(kept);
    },
    settled() {
      return logSink?.settled() ?? Promise.resolve();
    },
    setFlowControl(pause, resume) {
      holds.setFlowControl(pause, resume);
    },
    get held() {
      return holds.held;
    },
    released() {
      return holds.released();
    },
    progress() {
      return { bytes, lastLine: recent.lastLine(), at: recent.at };
    },
    finish() {
      if (finished) return finished;
      this.end();
      const logFile = logSink?.file(options.onLogProblem) ?? null;
      finished = { ...kept!, bytes, logFile };
      return finished;
    },
  };
}
