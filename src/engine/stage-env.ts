import { MARKER_NAME } from '../teardown/marker.js';
import type { StageSpec } from '../types.js';

// The environment a stage runs with: safe-run's own, the stage's additions, and the run's marker, by
// which teardown finds processes that left the stage's process group. `base` replaces safe-run's own
// environment when a plan carries one (a -c step after `export` or `cd`).
export function stageEnvironment(
  stage: StageSpec,
  marker: string,
  base: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, stage.env);
  env[MARKER_NAME] = marker;
  return env;
}
