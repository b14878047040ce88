// The value lists of the enumerated settings, written once: the types in src/model/, the commander
// choices, the zod schema and the docs all come from these.

export const POLICIES = ['pipefail', 'first-failure', 'last'] as const;
export const SIGPIPE_MODES = ['tolerate', 'fail'] as const;
export const ON_LIMIT_ACTIONS = ['truncate', 'kill'] as const;
export const LEFTOVERS_MODES = ['kill', 'keep'] as const;
export const LIVE_STDOUT_MODES = ['full', 'capped'] as const;
export const ON_DEADLOCK_ACTIONS = ['wait', 'stop'] as const;

export type Policy = (typeof POLICIES)[number];
export type SigpipeMode = (typeof SIGPIPE_MODES)[number];
export type OnLimit = (typeof ON_LIMIT_ACTIONS)[number];
export type LeftoversMode = (typeof LEFTOVERS_MODES)[number];
export type LiveStdoutMode = (typeof LIVE_STDOUT_MODES)[number];
export type OnDeadlock = (typeof ON_DEADLOCK_ACTIONS)[number];
