import type { Redirect } from '../syntax/nodes.js';
import type { RunnerApi } from './api.js';
import { applyRedirects } from './redirect.js';
import type { RedirectFailure } from './redirect-failure.js';

// Runs `work` with the shell's descriptors changed by `redirects`, restored after; a redirection that
// fails makes the command fail (status 1) without running it.
export async function withRedirects(
  r: RunnerApi,
  redirects: readonly Redirect[],
  work: () => Promise<number>,
  failed?: (failure: RedirectFailure) => void | Promise<void>,
): Promise<number> {
  if (redirects.length === 0) return work();
  const saved = r.sh.fds;
  // `done < <(cmd)`: the substitution's end is the shell's while the command runs, and closed after.
  const mark = saved.substitutions.length;
  const applied = await applyRedirects(r, redirects, saved.copy());
  if (applied.failed) {
    applied.fds.release();
    saved.closeSubstitutions(mark);
    await failed?.(applied.failed);
    return 1;
  }
  r.sh.fds = applied.fds;
  const touched = applied.fds.entries().filter(([fd, ref]) => ref !== saved.get(fd));
  try {
    return await work();
  } finally {
    // `exec` may have made new descriptors the shell's own: they stay, but for the ones these
    // redirections changed, which get back what they were (bash undoes the command's own).
    saved.closeSubstitutions(mark);
    if (r.sh.fds === applied.fds) {
      r.sh.fds = saved;
      applied.fds.release();
    } else {
      for (const [fd] of touched) r.sh.fds.set(fd, saved.get(fd));
      saved.release();
    }
  }
}
