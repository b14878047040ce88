import type { Settings, StageSpec } from '../types.js';

// What a program sees when no human is at the other end: no pager to quit, no colour codes to
// strip, no credential or debconf prompt to answer.
export const AGENT_ENV: Readonly<Record<string, string>> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  NO_COLOR: '1',
  GIT_TERMINAL_PROMPT: '0',
  DEBIAN_FRONTEND: 'noninteractive',
  // `git commit` without -m fails at once ("problem with the editor 'false'... use -m or -F")
  // instead of opening vi on a terminal that is not there.
  GIT_EDITOR: 'false',
};

// Defaults for an agent (`safe-run mcp`, `--agent`): nothing reads a terminal, nothing runs for
// ever, and a stage that asks a question is stopped instead of waiting for the time limit.
export const AGENT_SETTINGS: Readonly<Partial<Settings>> = {
  stdin: { kind: 'null' },
  timeoutMs: 2 * 60 * 1000,
  idleTimeoutMs: 60 * 1000,
  promptWaitMs: 2000,
};

// The agent environment under a stage's own variables: what the stage (or the caller) set wins.
export function withAgentEnv(stage: StageSpec): StageSpec {
  return { ...stage, env: { ...AGENT_ENV, ...stage.env } };
}
