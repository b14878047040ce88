import path from 'node:path';
import { maskText } from '../capture/mask.js';
import type { DeliveryPlan } from '../output/deliver.js';
import { stagingPath } from '../output/staged-file.js';

// What --dry-run says about --output, its checks and --atomic-redirects: where the product would be
// staged and what must hold before it replaces FILE. Nothing is created to find it out.
export interface DryRunOutput {
  file: string;
  // Where the product comes from: the last stage's stdout (--output), or the text's final
  // redirection (--atomic-redirects), as written.
  from: { kind: 'stdout' } | { kind: 'redirect'; redirect: string; stage: number | null };
  // The staged file's directory and the form of its name (its pid and random part are chosen at run time).
  stagedIn: string;
  stagedName: string;
  keepPartial: boolean;
  // As the report names them ("nonempty", "lines>=3", "cmd: jq -e ."), with the file a checker
  // command would execute (null for the built-in checks).
  checks: { check: string; program: string | null }[];
}

export function describeOutput(
  delivery: DeliveryPlan,
  lastStage: number | null,
  secrets: readonly string[],
): DryRunOutput {
  // A symbolic link's target is what is replaced, and the staged file goes beside it.
  const { target } = stagingPath(delivery.file);
  const { redirect } = delivery;
  return {
    file: target,
    from: redirect ? { kind: 'redirect', redirect: redirect.raw, stage: lastStage } : { kind: 'stdout' },
    stagedIn: path.dirname(target),
    stagedName: `.${path.basename(target)}.PID.RANDOM.staged`,
    keepPartial: delivery.keepPartial,
    checks: [
      ...delivery.expect.map((e) => ({ check: e.text, program: null })),
      ...delivery.commands.map((c) => ({
        check: maskText(`cmd: ${c.text}`, secrets),
        program: c.interpreter ? `${c.file} (run by ${c.interpreter})` : c.file,
      })),
    ],
  };
}

export function renderOutput(output: DryRunOutput): string[] {
  const row = (label: string, value: string) => `  ${label.padEnd(10)} ${value}`;
  const from =
    output.from.kind === 'stdout'
      ? "the last stage's stdout (--output)"
      : `the text's final ${JSON.stringify(output.from.redirect)}${output.from.stage === null ? '' : ` on stage ${output.from.stage}`} (--atomic-redirects): the stage opens the staged file instead of FILE`;
  const otherwise = output.keepPartial ? `kept as ${output.file}.partial` : 'removed';
  return [
    `output ${output.file}`,
    row('product', from),
    row('staged', `${path.join(output.stagedIn, output.stagedName)}`),
    row('publish', 'renamed over FILE only when the verdict is ok and every check passes'),
    row('otherwise', `FILE is left as it is; the staged file is ${otherwise}`),
    ...output.checks.map(({ check, program }) =>
      row('check', program ? `${check} (program ${program})` : check),
    ),
  ];
}
