// The library: `import { run } from 'safe-run'`. It never prints; the CLI is a thin layer over it.
export type { RunHandle, RunIO } from './engine/run-pipeline.js';
export { RequestError } from './errors.js';
export { type PlanOptions, planFromArgv, planFromInline } from './plan.js';
export { run, startRun } from './run.js';
export { DEFAULT_SETTINGS } from './settings/defaults.js';
export { runShellText, type SessionState } from './shell/run-shell-text.js';
export { initialState } from './shell/shell-state.js';
export type * from './types.js';
