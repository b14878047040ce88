import { ExpansionError } from '../expand/env.js';
import type { SimpleCommand, Word } from '../syntax/nodes.js';
import { walkWord } from '../syntax/walk.js';
import type { RunnerApi } from './api.js';
import { expandTarget } from './redirect-target.js';

// A program element's redirection target that fails to expand (`cat < "$unset" | ...` under set -u),
// found in the element's own subshell before the pipeline starts, so that the element fails alone
// as bash's child does while the others run. Only a target whose expansion changes nothing outside
// that subshell is tried early (no $( ), <( ), $RANDOM): it is expanded again as the element starts.
export async function failedTarget(sub: RunnerApi, command: SimpleCommand): Promise<ExpansionError | null> {
  for (const redirect of command.redirects) {
    const words = [redirect.target, ...(redirect.heredoc ? [redirect.heredoc.body] : [])];
    if (!words.every(withoutEffects)) continue;
    try {
      await expandTarget(sub, redirect);
    } catch (error) {
      if (error instanceof ExpansionError) return error;
      throw error;
    }
  }
  return null;
}

function withoutEffects(word: Word): boolean {
  let plain = true;
  walkWord(word, {
    part: (part) => {
      if (part.kind === 'cmdsubst' || part.kind === 'procsubst') plain = false;
      if (part.kind === 'param' && /^S?RANDOM$/.test(part.name)) plain = false;
    },
  });
  return plain;
}
