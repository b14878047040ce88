import { secretValuesFromEnv } from '../capture/mask.js';
import { RequestError } from '../errors.js';
import { applyDelivery } from '../output/apply-delivery.js';
import { DEFAULT_CHECK_TIMEOUT_MS, type DeliveryPlan, settleOutput, stageOutput } from '../output/deliver.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { Plan, Report } from '../types.js';

export interface SettleContext {
  plan: Plan;
  // When the run started (performance.now()): a checker gets what is left of --timeout.
  t0: number;
  stop: Promise<NodeJS.Signals>;
  // With the stages' own variables and --mask, it gives the values masked in check details.
  env: NodeJS.ProcessEnv;
}

// The CLI's side of --output: the staged file is the run's stdout; after the run, the checks and the
// publish-or-discard decision are added to the report.
export function startDelivery(plan: DeliveryPlan, guard: Watchdog | null) {
  let staged: ReturnType<typeof stageOutput>;
  try {
    staged = stageOutput(plan, guard);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new RequestError('usage.output', `--output ${plan.file}: cannot create a file beside it (${code})`);
  }
  return {
    stdout: staged.stream as NodeJS.WritableStream,
    async settle(report: Report, context: SettleContext): Promise<Report> {
      const { settings, stages } = context.plan;
      const left = settings.timeoutMs === null ? null : settings.timeoutMs - (performance.now() - context.t0);
      const outcome = await settleOutput(plan, staged, report, {
        checkTimeoutMs: left === null ? DEFAULT_CHECK_TIMEOUT_MS : Math.max(1, Math.round(left)),
        killAfterMs: settings.killAfterMs,
        stop: context.stop,
        guard,
      });
      const envs = [context.env, ...stages.map((stage) => stage.env), ...plan.commands.map((c) => c.env)];
      return applyDelivery(report, outcome, secretValuesFromEnv(Object.assign({}, ...envs), settings.mask));
    },
  };
}
