import { secretValuesFromEnv } from '../capture/mask.js';
import { RequestError } from '../errors.js';
import { monotonicMs } from '../monotonic-ms.js';
import { targetText } from '../outcome-text/render.js';
import { applyDelivery } from '../output/apply-delivery.js';
import { DEFAULT_CHECK_TIMEOUT_MS, type DeliveryPlan, settleOutput, stageOutput } from '../output/deliver.js';
import { stageFinalRedirect } from '../output/final-redirect.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { Plan, Report, ShellPlan } from '../types.js';

interface SettleContext {
  plan: Plan;
  // When the run started (monotonicMs()): a checker gets what is left of --timeout.
  t0: number;
  stop: Promise<NodeJS.Signals>;
  // With the stages' own variables and --mask, it gives the values masked in check details.
  env: NodeJS.ProcessEnv;
}

// The CLI's side of --output and --atomic-redirects: the staged file is the run's stdout, or the
// file the text's final `> FILE` opens instead of FILE (`shell`, the text pointed at it); after the
// run, the checks and the publish-or-discard decision are added to the report.
export function startDelivery(plan: DeliveryPlan, guard: Watchdog | null, shell: ShellPlan | undefined) {
  let staged: ReturnType<typeof stageOutput>;
  const flag = plan.redirect ? '--atomic-redirects' : '--output';
  try {
    staged = stageOutput(plan, guard);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new RequestError('usage.output', `${flag} ${plan.file}: cannot create a file beside it (${code})`);
  }
  const redirect = plan.redirect;
  return {
    stdout: redirect ? null : (staged.stream as NodeJS.WritableStream),
    shell:
      redirect && shell
        ? { ...shell, script: stageFinalRedirect(shell.script, redirect, staged.path) }
        : shell,
    async settle(report: Report, context: SettleContext): Promise<Report> {
      const { settings, stages } = context.plan;
      const left = settings.timeoutMs === null ? null : settings.timeoutMs - (monotonicMs() - context.t0);
      const outcome = await settleOutput(plan, staged, report, {
        checkTimeoutMs: left === null ? DEFAULT_CHECK_TIMEOUT_MS : Math.max(1, Math.round(left)),
        killAfterMs: settings.killAfterMs,
        stop: context.stop,
        guard,
      });
      const envs = [context.env, ...stages.map((stage) => stage.env), ...plan.commands.map((c) => c.env)];
      const shown = redirect ? showWrittenFile(report, staged.path, redirect.written) : report;
      return applyDelivery(shown, outcome, secretValuesFromEnv(Object.assign({}, ...envs), settings.mask));
    },
  };
}

// The stage's stdout is reported as going to FILE as written, not to the staged file it opened.
function showWrittenFile(report: Report, stagedPath: string, written: string): Report {
  const target = { kind: 'file', path: written } as const;
  const stages = report.stages.map((stage) =>
    stage.stdout.target?.kind === 'file' && stage.stdout.target.path === stagedPath
      ? { ...stage, stdout: { ...stage.stdout, to: targetText(target), target } }
      : stage,
  );
  return { ...report, stages };
}
