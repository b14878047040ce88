import { secretValuesFromEnv } from '../capture/mask.js';
import { RequestError } from '../errors.js';
import { DEFAULT_CHECK_TIMEOUT_MS, type DeliveryPlan, settleOutput, stageOutput } from '../output/deliver.js';
import { applyDelivery } from '../report/apply-delivery.js';
import type { Watchdog } from '../teardown/watchdog.js';
import type { Report } from '../types.js';

export interface SettleContext {
  // What is left of --timeout, or null without one.
  timeLeftMs: number | null;
  killAfterMs: number;
  stop: Promise<NodeJS.Signals>;
  // The run's --mask names; with the environment they give the values masked in check details.
  mask: readonly string[];
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
      const checkTimeoutMs =
        context.timeLeftMs === null ? DEFAULT_CHECK_TIMEOUT_MS : Math.max(1, Math.round(context.timeLeftMs));
      const outcome = await settleOutput(plan, staged, report, {
        checkTimeoutMs,
        killAfterMs: context.killAfterMs,
        stop: context.stop,
        guard,
      });
      const commandEnv = Object.assign({}, context.env, ...plan.commands.map((command) => command.env));
      return applyDelivery(report, outcome, secretValuesFromEnv(commandEnv, context.mask));
    },
  };
}
