import type { RunIO } from '../engine/run-pipeline.js';
import type { RunSupport } from '../engine/run-support.js';
import type { Settings, ShellPlan } from '../types.js';
import type { StartState } from './interp/init-shell.js';
import { type ScriptHandle, startScript } from './interp/run-script.js';
import type { SimpleCommand } from './syntax/nodes.js';
import { writtenCommands } from './written-commands.js';

// A planned -c text (or script) run by the interpreter from `initial`, with --ok-codes applied to the
// commands as written.
export function startShellPlan(
  shell: ShellPlan,
  initial: StartState,
  settings: Settings,
  io: RunIO = {},
  support: RunSupport | null = null,
): ScriptHandle {
  const places = new Map<SimpleCommand, number>();
  for (const [i, command] of writtenCommands(shell.script).entries()) places.set(command, i);
  const okCodesFor = (command: SimpleCommand) => {
    const at = places.get(command);
    return at === undefined ? null : (shell.okCodes[at] ?? null);
  };
  const plan = {
    script: shell.script,
    source: shell.source,
    arg0: shell.arg0,
    args: shell.args,
    errexit: shell.errexit,
    file: shell.file,
    okCodes: okCodesFor,
  };
  return startScript(plan, initial, settings, io, support);
}
