import { secretValuesFromEnv } from '../capture/mask.js';
import { RunFacts } from '../facts/run-facts.js';
import { maskReport } from '../report/mask-report.js';
import { createMarker } from '../teardown/marker.js';
import { hasProc } from '../teardown/proc-scan.js';
import { startWatchdog } from '../teardown/watchdog.js';
import type { Plan, Report, StageError } from '../types.js';
import { applyRedirects, notFoundAsBash } from './apply-redirects.js';
import { buildReport } from './build-report.js';
import { closeQuietly, createKernelPipes } from './kernel-pipes.js';
import { openStdin } from './open-stdin.js';
import { preflight } from './preflight.js';
import type { Resolved } from './resolve-program.js';
import { spawnStage } from './spawn-stage.js';
import { stageEnvironment } from './stage-env.js';
import { newStageRun, stageFinished } from './stage-run.js';
import { readStream } from './stream-reader.js';
import { createStreamSinks } from './stream-sinks.js';
import { Supervisor } from './supervisor.js';
import { groupExists } from './teardown.js';

export interface RunIO {
  // Where the last stage's stdout streams live; null or absent: nothing streams (the library default).
  stdout?: NodeJS.WritableStream | null;
  // Where every stage's stderr streams live, whole lines, prefixed by stage name when there are several.
  stderr?: NodeJS.WritableStream | null;
}

export interface RunHandle {
  readonly report: Promise<Report>;
  // Forwards a signal to every stage, then escalates to SIGKILL after kill-after (safe-run was stopped).
  cancel(signal: NodeJS.Signals): void;
}

// Runs a validated plan. Problems with the request reject with RequestError before anything starts;
// everything that happens to a stage is data in the report.
export function startRun(plan: Plan, io: RunIO = {}): RunHandle {
  const marker = createMarker();
  const startedAt = new Date();
  const t0 = performance.now();
  let cancelRequest: NodeJS.Signals | null = null;
  let supervisor: Supervisor | null = null;
  let wake: (why: string) => void = () => {};
  // Resolves when safe-run is asked to stop before its stages exist (a signal while opening stdin).
  const interrupt = new Promise<string>((resolve) => {
    wake = resolve;
  });

  const report = (async (): Promise<Report> => {
    const runs = plan.stages.map((spec, i) =>
      newStageRun(spec, i + 1, stageEnvironment(spec, marker.value, plan.env)),
    );
    const facts = plan.settings.facts ? new RunFacts(plan.settings.facts, runs) : null;
    const mergedEnv: Record<string, string> = Object.assign({}, ...runs.map((run) => run.env));
    const secrets = secretValuesFromEnv(mergedEnv, plan.settings.mask);
    const failedPreflight = preflight(runs) && !plan.startEach;
    facts?.recordPreflight();
    // Opened after preflight: opening a FIFO is already a side effect on its writer.
    const stdin =
      failedPreflight || cancelRequest ? ('ignore' as const) : await openStdin(plan, interrupt, t0);
    let timeLimit: string | null = null;
    if (typeof stdin === 'object') {
      for (const run of runs) {
        run.stoppedAs = cancelRequest ? 'cancelled' : 'timeout';
        run.stopDetail = {
          reason: stdin.why,
          afterMs: Math.round(performance.now() - t0),
          signals: [],
          snapshot: [],
        };
      }
      if (!cancelRequest) timeLimit = stdin.why;
    }
    const stdinFd = typeof stdin === 'object' ? ('ignore' as const) : stdin;
    if (failedPreflight || cancelRequest || typeof stdin === 'object') {
      closeQuietly(typeof stdinFd === 'number' ? stdinFd : null);
      const built = buildReport(plan, runs, {
        startedAt,
        t0,
        stdoutReaderGone: false,
        interrupted: cancelRequest,
        timeLimit,
        leftovers: [],
        warnings: facts?.warnings ?? [],
        facts,
        streamedStdout: false,
      });
      return maskReport(built, secrets);
    }

    const n = runs.length;
    const pipes = createKernelPipes(n - 1 + n + 1);
    const links = pipes.slice(0, n - 1);
    const errPipes = pipes.slice(n - 1, 2 * n - 1);
    const outPipe = pipes[2 * n - 1]!;
    const sup = new Supervisor(plan.settings, runs, marker);
    if (!hasProc()) {
      sup.warnings.push(
        'no /proc on this platform: processes that escaped their stage group and holders of open pipes cannot be found',
      );
    }
    const watchdog = startWatchdog(marker);
    for (const name of plan.settings.mask) {
      if (!mergedEnv[name])
        sup.warnings.push(`mask ${name}: the variable is not set, so there is nothing to mask`);
    }
    supervisor = sup;
    const several = n > 1;
    let stdoutReaderGone = false;
    let stdoutFailed = false;

    // Whoever read safe-run's stderr is gone or it cannot be written: stop showing stderr live.
    // Every stream is still read to the end, counted, kept and logged.
    const onStderrError = () => {
      for (const run of runs) run.stderrSinks?.detachLive();
    };
    io.stderr?.on('error', onStderrError);
    let onStdoutError: ((error: NodeJS.ErrnoException) => void) | null = null;
    for (const [i, run] of runs.entries()) {
      const errPipe = errPipes[i]!;
      run.stderrSinks = createStreamSinks({
        cap: run.spec.maxStderr ?? plan.settings.maxStderr,
        secrets,
        live: io.stderr ?? null,
        prefix: several ? run.spec.name : null,
        capLive: true,
        endLiveLine: true,
        label: `stage "${run.spec.name}" stderr`,
        onBytes: () => sup.noteActivity(),
        onCapExceeded: () => sup.stopForLimit(run),
        onLogProblem: (problem) => sup.warnings.push(`log incomplete: ${problem}`),
        settings: plan.settings,
        logName: `${run.index}-${run.spec.name}.stderr`,
      });
      const isLast = i === n - 1;
      if (isLast) {
        run.stdoutSinks = createStreamSinks({
          cap: run.spec.maxStdout ?? plan.settings.maxStdout,
          secrets,
          live: io.stdout ?? null,
          prefix: null,
          capLive: plan.settings.liveStdout === 'capped',
          maskLive: plan.settings.liveStdout === 'capped',
          label: `stage "${run.spec.name}" stdout`,
          onBytes: () => sup.noteActivity(),
          onCapExceeded: () => sup.stopForLimit(run),
          onLogProblem: (problem) => sup.warnings.push(`log incomplete: ${problem}`),
          settings: plan.settings,
          logName: `${run.index}-${run.spec.name}.stdout`,
        });
      }
      const stdin = i === 0 ? stdinFd : links[i - 1]!.readFd;
      const stdout = isLast ? outPipe.writeFd : links[i]!.writeFd;
      // Redirections (-c text) are applied here, as bash applies them in the child just before exec.
      const redirected = await applyRedirects(
        [stdin, stdout, errPipe.writeFd],
        run.spec.redirects ?? [],
        run.cwd,
      );
      run.redirectedTo = redirected.to;
      if (redirected.failure || run.preflightError) {
        // As in bash: the redirection fails first, else the program is not found; the stage fails
        // alone, and its exit closes the read end of its pipe, so the writer before it meets SIGPIPE.
        run.spawnError = redirected.failure
          ? { ...redirected.failure, exitCode: 1, during: 'redirect' }
          : notFoundAsBash(run, redirected.fds[2]);
        run.preflightError = null;
        if (i > 0) {
          closeQuietly(links[i - 1]!.readFd);
          links[i - 1]!.readFd = -1;
        }
      } else {
        try {
          const [fd0, fd1, fd2] = redirected.fds;
          const spawned = spawnStage(
            run.spec.launch ?? run.spec.argv,
            run.resolution as Resolved,
            { stdin: fd0, stdout: fd1, stderr: fd2 },
            run.env,
            run.cwd,
          );
          run.child = spawned.child;
          run.pid = spawned.pid;
        } catch (error) {
          run.spawnError = spawnFailure(error as NodeJS.ErrnoException);
        }
      }
      for (const fd of redirected.opened) closeQuietly(fd);
      run.startedAt = new Date();
      run.startNs = performance.now();
      if (run.child) {
        run.child.on('error', (error: NodeJS.ErrnoException) => {
          // Only a failure to create the process; a started stage's fate comes from 'exit'.
          if (run.pid === null) {
            run.spawnError = spawnFailure(error);
            run.markExited(null, null);
          }
        });
        run.child.on('exit', (code, signal) => {
          run.endNs = performance.now();
          run.markExited(code, signal);
          sup.onStageExit(run);
        });
        if (run.pid !== null) {
          facts?.recordStarted(run);
          watchdog.watchGroup(run.pid);
          sup.watch(run);
        }
      } else {
        run.markExited(null, null);
      }
      const errReader = readStream(errPipe.readFd, (chunk) => run.stderrSinks!.push(chunk));
      void errReader.ended.then(() => run.stderrSinks!.end());
      run.stderrSinks.setFlowControl(errReader.pause, errReader.resume);
      run.readers.push(errReader);
      run.readFds.push(errPipe.readFd);
      if (isLast) {
        const outReader = readStream(outPipe.readFd, (chunk) => run.stdoutSinks!.push(chunk));
        void outReader.ended.then(() => run.stdoutSinks!.end());
        run.stdoutSinks!.setFlowControl(outReader.pause, outReader.resume);
        run.readers.push(outReader);
        run.readFds.push(outPipe.readFd);
        onStdoutError = (error: NodeJS.ErrnoException) => {
          // Whoever read safe-run's stdout is gone (EPIPE), or it cannot be written (ENOSPC, EIO): close
          // the last stage's pipe so it meets SIGPIPE, as it would have in a shell pipeline. Only a
          // reader that left makes that SIGPIPE a tolerated one; a failed write is never success.
          stdoutFailed = true;
          if (error.code === 'EPIPE') stdoutReaderGone = true;
          else
            sup.warnings.push(
              `could not write safe-run's stdout (${error.code ?? error.message}): the last stage's output was cut off`,
            );
          run.stdoutSinks?.detachLive();
          outReader.abandon();
        };
        io.stdout?.on('error', onStdoutError);
      }
    }
    // The children hold their ends now; safe-run keeping a write end would hide EOF from a reader.
    for (const pipe of links) {
      closeQuietly(pipe.readFd);
      closeQuietly(pipe.writeFd);
    }
    for (const pipe of errPipes) closeQuietly(pipe.writeFd);
    closeQuietly(outPipe.writeFd);
    closeQuietly(typeof stdinFd === 'number' ? stdinFd : null);

    if (cancelRequest) sup.cancel(cancelRequest);
    sup.start();
    await Promise.all(
      runs.map(async (run) => {
        await stageFinished(run, plan.settings, sup);
        // An empty group's id may be reused: stop the watchdog from ever killing it.
        if (run.pid !== null && !groupExists(run.pid)) watchdog.unwatchGroup(run.pid);
      }),
    );
    const leftovers = await sup.finish();
    io.stderr?.off('error', onStderrError);
    if (onStdoutError) io.stdout?.off('error', onStdoutError);
    watchdog.disarm();
    for (const run of runs) {
      run.stdoutSinks?.end();
      run.stderrSinks?.end();
    }
    await Promise.all(runs.flatMap((run) => [run.stdoutSinks?.settled(), run.stderrSinks?.settled()]));
    // Finishing the sinks closes the logs, whose problems become warnings: before warnings are read.
    for (const run of runs) {
      run.stdoutSinks?.finish();
      run.stderrSinks?.finish();
    }
    const built = buildReport(plan, runs, {
      startedAt,
      t0,
      stdoutReaderGone,
      interrupted: sup.interruptedBy(),
      timeLimit: sup.timeLimitFired(),
      leftovers,
      warnings: [...(facts?.warnings ?? []), ...sup.warnings],
      facts,
      streamedStdout: Boolean(io.stdout) && plan.settings.liveStdout === 'full' && !stdoutFailed,
    });
    return maskReport(built, secrets);
  })();

  return {
    report,
    cancel(signal) {
      cancelRequest ??= signal;
      supervisor?.cancel(signal);
      wake(`safe-run received ${signal}`);
    },
  };
}

export function run(plan: Plan, io: RunIO = {}): Promise<Report> {
  return startRun(plan, io).report;
}

// The kernel refused to start a program that preflight accepted (E2BIG, ETXTBSY, ENOMEM...).
function spawnFailure(error: NodeJS.ErrnoException): StageError {
  const code = error.code ?? 'EUNKNOWN';
  return {
    code,
    message: `the kernel refused to start it: ${error.message}`,
    exitCode: code === 'ENOENT' ? 127 : 126,
    during: 'start',
  };
}
