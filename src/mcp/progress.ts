import { formatDuration } from '../format-units.js';
import { monotonicMs } from '../monotonic-ms.js';
import type { Transcript } from './transcript.js';

// How often a running call tells a client that asked for progress: well within the few seconds after
// which clients that reset their timeout on progress would otherwise give up.
const PROGRESS_EVERY_MS = 2000;
const LINES = 5;
const MAX_MESSAGE = 800;

export interface ProgressSink {
  progressToken?: string | number | undefined;
  send(params: { progressToken: string | number; progress: number; message: string }): Promise<void>;
}

// While a call runs, sends `notifications/progress` every PROGRESS_EVERY_MS when the client gave a
// progressToken: the seconds so far as `progress` (always increasing), and a message with the latest
// output lines. Returns the function that stops it.
export function reportProgress(sink: ProgressSink, transcript: Transcript, startedAt: number): () => void {
  const token = sink.progressToken;
  if (token === undefined) return () => {};
  const timer = setInterval(() => {
    const elapsed = monotonicMs() - startedAt;
    const lines = transcript.lastLines(LINES);
    const head = `running for ${formatDuration(elapsed)}, ${transcript.bytes} bytes of output`;
    const text = lines ? `${head}; latest:\n${lines}` : `${head} (nothing printed yet)`;
    const message = text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
    sink.send({ progressToken: token, progress: Math.round(elapsed) / 1000, message }).catch(() => {});
  }, PROGRESS_EVERY_MS);
  return () => clearInterval(timer);
}
