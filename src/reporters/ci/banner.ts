import type { Plan } from '../../types.js';
import { commandText } from './command-text.js';

// The one line a CI log shows before any stage output: what runs, as text. A -c text is shown as
// written, on one line, with how many steps it has (its stages are made step by step).
export function renderBanner(plan: Plan): string {
  if (plan.shell) {
    const steps = plan.shell.script.stmts.length;
    const text = Buffer.from(plan.shell.source, 'latin1').toString('utf8').replace(/\r?\n/g, '\\n');
    return `safe-run: running ${text} (${steps === 1 ? '1 step' : `${steps} steps`})\n`;
  }
  const argvs = plan.stages.map((stage) => stage.argv);
  const stages = argvs.length === 1 ? '1 stage' : `${argvs.length} stages`;
  return `safe-run: running ${argvs.map(commandText).join(' | ')} (${stages})\n`;
}
