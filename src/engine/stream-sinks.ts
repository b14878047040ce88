import path from 'node:path';
import { HeadTailKeeper, type KeptStream } from '../capture/head-tail.js';
import { StreamLog } from '../capture/log-file.js';
import { StreamMasker } from '../capture/mask.js';
import { RecentLine } from '../capture/recent-line.js';
import { MaskCommandScanner } from '../capture/workflow-commands.js';
import type { Settings, StreamReport } from '../types.js';
import { type LineStyle, LiveStream } from './live-stream.js';
import { LogSink } from './log-sink.js';
import { ReadHolds } from './read-holds.js';
import type { SharedLine } from './shared-line.js';

interface SinkOptions {
  // What is kept for the report, head and tail.
  cap: number;
  secrets: readonly string[];
  live: NodeJS.WritableStream | null;
  // Stage name prefixed to each live line, or null to stream bytes as they come.
  prefix: string | null;
  // Text put before each live line (a timestamp); when set, the stream goes out as whole lines.
  linePrefix?: (() => string) | null;
  style?: LineStyle | null;
  shared?: SharedLine | null;
  // Registers a value a ::add-mask:: line of this stream gave; null: such lines are not read.
  onMask?: ((value: string) => void) | null;
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
  // A list that may grow (::add-mask::) needs its masker from the start.
  const mayMask = options.secrets.length > 0 || Boolean(options.onMask);
  const masker = needsMasked && mayMask ? new StreamMasker(options.secrets) : null;
  const log = options.settings.logDir
    ? new StreamLog(path.join(options.settings.logDir, options.logName), options.settings.maxLog, {
        exclusive: true,
      })
    : null;
  const holds = new ReadHolds();
  const logSink = log ? new LogSink(log, holds) : null;
  const live = new LiveStream(options.live, options, holds);
  const recent = new RecentLine(512, options.secrets);
  const scanner = options.onMask ? new MaskCommandScanner() : null;
  // The product (the last stage's stdout, streamed whole) goes out byte for byte: masking it would
  // corrupt data (a dump or an archive that contains the value). Everything else is masked.
  const maskLive = options.maskLive !== false;
  const pass = passer(masker, logSink, live, maskLive);
  return { keeper, masker, holds, logSink, live, recent, scanner, pass, maskLive };
}

// Writes a piece of the stream to the log, masked, and live: masked unless the product, or an
// ::add-mask:: line (`command`), which the runner reads and never shows: it must get the value, and
// masks it itself from then on.
function passer(
  masker: StreamMasker | null,
  logSink: LogSink | null,
  live: LiveStream,
  maskLive: boolean,
): (piece: Buffer, command: boolean) => void {
  return (piece, command) => {
    if (!logSink && !live.attached) return;
    if (command && masker) {
      const rest = masker.flush();
      logSink?.write(rest);
      if (maskLive) live.write(rest, false);
    }
    const masked = masker ? masker.push(piece) : piece;
    logSink?.write(masked);
    live.write(maskLive && !command ? masked : piece, false);
  };
}

// Everything one stream's bytes go to, in order: the count and head/tail kept for the report, the
// whole-stream log, and the live display. Secrets are masked before anything is written anywhere.
export function createStreamSinks(options: SinkOptions): StreamSinks {
  const { keeper, masker, holds, logSink, live, recent, scanner, pass, maskLive } = openSinks(options);
  let bytes = 0;
  let kept: KeptStream | null = null;
  let finished: StreamReport | null = null;

  return {
    push(chunk) {
      bytes += chunk.length;
      recent.push(chunk);
      options.onBytes(chunk);
      keeper.push(chunk);
      if (bytes > options.cap && bytes - chunk.length <= options.cap) options.onCapExceeded();
      if (!scanner) pass(chunk, false);
      else {
        for (const piece of scanner.split(chunk)) {
          pass(piece.bytes, piece.mask !== null);
          if (piece.mask !== null) options.onMask?.(piece.mask);
        }
      }
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
