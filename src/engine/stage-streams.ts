import { runLogPrefix } from '../capture/log-name.js';
import { maskText } from '../capture/mask.js';
import { shownText } from '../shown-text.js';
import type { Settings } from '../types.js';
import type { LineStyle } from './live-stream.js';
import type { PipelinePipes } from './pipeline-pipes.js';
import { SharedLine } from './shared-line.js';
import type { StageRun } from './stage-run.js';
import { readStream, type StreamReader } from './stream-reader.js';
import { createStreamSinks, type StreamSinks } from './stream-sinks.js';
import type { Supervisor } from './supervisor.js';

interface StreamContext {
  settings: Settings;
  secrets: readonly string[];
  // Where the last stage's stdout and every stderr stream live; null: nowhere.
  stdout: NodeJS.WritableStream | null;
  stderr: NodeJS.WritableStream | null;
  // Text put before each live stderr line (a timestamp); when set, stderr streams as whole lines.
  linePrefix: (() => string) | null;
  style: LineStyle | null;
  // Registers a stage's ::add-mask:: value; null: such lines are not read.
  onMask: ((value: string) => void) | null;
  // Every stderr byte live (RunIO.wholeStderr), not only up to the cap.
  wholeStderr: boolean;
  supervisor: Supervisor;
}

export interface StreamWiring {
  // The reader of safe-run's stdout went away (EPIPE): the last stage's SIGPIPE was earned.
  stdoutReaderGone(): boolean;
  // Writing safe-run's stdout failed for any reason: the product did not stream whole.
  stdoutFailed(): boolean;
  // Stops listening for errors on safe-run's own streams.
  detach(): void;
}

// Connects every stage's stderr, and the last stage's stdout, to what keeps, logs and shows them, and
// starts reading them. Readers take their read ends over from `pipes`.
export function connectStreams(
  runs: readonly StageRun[],
  pipes: PipelinePipes,
  ctx: StreamContext,
): StreamWiring {
  const several = runs.length > 1;
  const logPrefix = runLogPrefix(new Date(), process.pid);
  const shared = new SharedLine();
  for (const [i, run] of runs.entries()) {
    run.stderrSinks = stageSinks(run, 'stderr', several, ctx, logPrefix, shared);
    attachReader(run, run.stderrSinks, pipes.handOver(pipes.errPipes[i]!.readFd));
  }
  const last = runs[runs.length - 1]!;
  last.stdoutSinks = stageSinks(last, 'stdout', several, ctx, logPrefix);
  const outReader = attachReader(last, last.stdoutSinks, pipes.handOver(pipes.outPipe.readFd));

  let readerGone = false;
  let failed = false;
  // Whoever read safe-run's stderr is gone or it cannot be written: stop showing stderr live.
  // Every stream is still read to the end, counted, kept and logged.
  const onStderrError = () => {
    for (const run of runs) run.stderrSinks?.detachLive();
  };
  // Whoever read safe-run's stdout is gone (EPIPE), or it cannot be written (ENOSPC, EIO): close the
  // last stage's pipe so it meets SIGPIPE, as it would have in a shell pipeline. Only a reader that
  // left makes that SIGPIPE a tolerated one; a failed write is never success.
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    failed = true;
    if (error.code === 'EPIPE') readerGone = true;
    else
      ctx.supervisor.warnings.push(
        `could not write safe-run's stdout (${error.code ?? error.message}): the last stage's output was cut off`,
      );
    last.stdoutSinks?.detachLive();
    outReader.abandon();
  };
  listenForErrors(ctx.stderr, onStderrError);
  listenForErrors(ctx.stdout, onStdoutError);
  return {
    stdoutReaderGone: () => readerGone,
    stdoutFailed: () => failed,
    detach() {
      ctx.stderr?.off('error', onStderrError);
      ctx.stdout?.off('error', onStdoutError);
    },
  };
}

// Every running pipeline listens for the errors of safe-run's own stdout and stderr. A text can run
// more than Node's default of 10 at once (a function that pipes into itself, jobs), for which Node
// would print a MaxListenersExceededWarning on safe-run's stderr: the limit follows the count.
function listenForErrors(
  stream: NodeJS.WritableStream | null,
  listener: (error: NodeJS.ErrnoException) => void,
) {
  if (!stream) return;
  const emitter = stream as NodeJS.WritableStream & {
    getMaxListeners(): number;
    setMaxListeners(n: number): void;
  };
  const needed = emitter.listenerCount('error') + 1;
  const max = emitter.getMaxListeners();
  if (max !== 0 && needed > max) emitter.setMaxListeners(needed);
  stream.on('error', listener);
}

// The sinks of one stream. Stderr is capped live (unless RunIO.wholeStderr) and prefixed when there
// are several stages; the last stage's stdout is the pipeline's product, streamed whole and unmasked
// unless capped.
function stageSinks(
  run: StageRun,
  stream: 'stdout' | 'stderr',
  several: boolean,
  ctx: StreamContext,
  logPrefix: string,
  shared: SharedLine | null = null,
): StreamSinks {
  const { settings, supervisor } = ctx;
  const isErr = stream === 'stderr';
  const capped = isErr ? !ctx.wholeStderr : settings.liveStdout === 'capped';
  // The name goes out in line prefixes, cap markers and the log file's name: a secret in it never does.
  const name = maskText(run.spec.name, ctx.secrets);
  return createStreamSinks({
    cap: isErr ? (run.spec.maxStderr ?? settings.maxStderr) : (run.spec.maxStdout ?? settings.maxStdout),
    secrets: ctx.secrets,
    live: isErr ? ctx.stderr : ctx.stdout,
    prefix: isErr && several ? shownText(name) : null,
    linePrefix: isErr ? ctx.linePrefix : null,
    style: isErr ? ctx.style : null,
    shared,
    onMask: ctx.onMask,
    capLive: capped,
    maskLive: isErr ? undefined : capped,
    endLiveLine: isErr ? true : undefined,
    label: `stage "${name}" ${stream}`,
    onBytes: (chunk) => supervisor.noteActivity(run, chunk),
    onCapExceeded: () => supervisor.stopForLimit(run),
    onLogProblem: (problem) => supervisor.warnings.push(`log incomplete: ${problem}`),
    settings,
    logName: `${logPrefix}${run.index}-${name}.${stream}`,
  });
}

function attachReader(run: StageRun, sinks: StreamSinks, fd: number): StreamReader {
  const reader = readStream(fd, (chunk) => sinks.push(chunk));
  void reader.ended.then(() => sinks.end());
  sinks.setFlowControl(reader.pause, reader.resume);
  run.readers.push(reader);
  run.readFds.push(fd);
  return reader;
}
