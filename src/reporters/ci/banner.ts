import { commandText } from './command-text.js';

// The one line a CI log shows before any stage output: what runs, as text.
export function renderBanner(argvs: readonly (readonly string[])[]): string {
  const stages = argvs.length === 1 ? '1 stage' : `${argvs.length} stages`;
  return `safe-run: running ${argvs.map(commandText).join(' | ')} (${stages})\n`;
}
