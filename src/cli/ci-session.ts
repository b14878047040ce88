import { maskText, planSecrets } from '../capture/mask.js';
import { maskLearned } from '../engine/report/mask-learned.js';
import type { RunHandle, RunIO } from '../engine/run-pipeline.js';
import { renderBanner } from '../reporters/ci/banner.js';
import { inertForRunner } from '../reporters/ci/github.js';
import { formatStamp, stampLines } from '../reporters/ci/timestamps.js';
import { type ToolPlaces, toolPlaces } from '../reporters/ci/tool-annotations.js';
import type { Plan, Report } from '../types.js';
import type { CiSettings } from './ci-settings.js';
import { type Heartbeat, startHeartbeat } from './heartbeat.js';
import { LiveView, liveViewFits } from './live-view.js';

// A line held for its newline (a prompt) is shown once its stage has been quiet this long.
const SHOW_PARTIAL_MS = 500;

interface SessionIO {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

// Everything around a run that is about presenting it (banner, timestamps, live view, heartbeat),
// kept out of the run itself. The CI frame of the table (groups, annotations) and the step summary
// are reporters (reporters/ci/) that chooseReporters builds with what this session knows.
export class CiSession {
  private view: LiveView | null = null;
  private heartbeat: Heartbeat | null = null;
  private secrets: string[] = [];
  // Where the run started, in the job's checkout: known once the plan is.
  private toolPlacesSeen: ToolPlaces | null = null;
  // The values stages registered with ::add-mask:: (the run adds them), when the runner reads the log.
  private readonly masks: string[] | null;

  constructor(
    private readonly settings: CiSettings,
    private readonly io: SessionIO,
    private readonly json: boolean,
  ) {
    this.masks = settings.runnerCommands ? [] : null;
  }

  // The run's secrets masked in text said about it outside the report (a file that could not be written).
  mask(text: string): string {
    return maskText(text, this.masks ? [...this.secrets, ...this.masks] : this.secrets);
  }

  // The report with what stages registered with ::add-mask:: masked everywhere, text kept before
  // the value was known included: the table, annotations, summary, JUnit and --report.
  masked(report: Report): Report {
    return this.masks && this.masks.length > 0 ? maskLearned(report, this.masks) : report;
  }

  // safe-run's own text, stamped when timestamps are on, and never read by the runner as a command.
  stamp(text: string): string {
    const stamped = this.settings.timestamps ? stampLines(text, new Date()) : text;
    return this.settings.runnerCommands ? inertForRunner(stamped) : stamped;
  }

  // Where stage stderr goes, and what precedes each of its lines; prints the banner in a CI log.
  prepare(plan: Plan): Pick<RunIO, 'lines' | 'masks'> & {
    stderr: NodeJS.WritableStream;
    linePrefix: (() => string) | null;
  } {
    const { io, settings } = this;
    // The plan is not masked (the report is): what is said from the plan or from /proc is masked
    // here with the values the engine masks.
    this.secrets = planSecrets(plan, io.env);
    this.toolPlacesSeen = toolPlaces(io.env, plan.cwd);
    if (!this.json && (settings.system !== 'none' || settings.timestamps)) {
      io.stderr.write(this.stamp(maskText(renderBanner(plan), this.secrets)));
    }
    const live = !this.json && settings.live && liveViewFits(io.stdout, io.stderr);
    const stampLive = settings.timestamps ? () => `${formatStamp(new Date())} ` : null;
    // The live view counts lines: stderr must reach it as whole lines, so it gets a (maybe empty) prefix.
    const linePrefix = stampLive ?? (live ? () => '' : null);
    const lines = {
      labels: settings.runnerCommands ? 'header' : 'prefix',
      passCommands: settings.runnerCommands,
      // The live view draws whole lines: it shows a held line as the stage's last line instead.
      showPartialMs: live ? null : SHOW_PARTIAL_MS,
    } as const;
    return { stderr: live ? this.startView() : io.stderr, linePrefix, lines, masks: this.masks };
  }

  private startView(): NodeJS.WritableStream {
    this.view = new LiveView(this.io.stderr, () => this.handle?.progress() ?? []);
    return this.view.stream;
  }

  private handle: RunHandle | null = null;

  watch(handle: RunHandle): void {
    this.handle = handle;
    this.view?.start();
    if (this.settings.heartbeatMs !== null) {
      const write = (text: string) => {
        if (text) (this.view?.stream ?? this.io.stderr).write(this.stamp(maskText(text, this.secrets)));
      };
      this.heartbeat = startHeartbeat(handle, this.settings.heartbeatMs, write);
    }
  }

  async stop(): Promise<void> {
    this.heartbeat?.stop();
    await this.view?.stop();
  }

  // The CI system whose log the table is framed for.
  get system(): CiSettings['system'] {
    return this.settings.system;
  }

  // Where the paths of a tool's problems are read from (GitHub annotations of the blamed stage).
  get places(): ToolPlaces {
    return this.toolPlacesSeen ?? toolPlaces(this.io.env, undefined);
  }

  // Where the step summary goes (GitHub's $GITHUB_STEP_SUMMARY), if anywhere.
  get stepSummary(): string | null {
    return this.settings.stepSummary;
  }
}
