// @ts-expect-error: a build script in plain JavaScript, without declarations
import { staleBuild } from '../../scripts/build-stamp.mjs';
import { ROOT } from './cli.js';

// vitest's globalSetup: the tests run the built dist/ (bin/safe-run loads dist/cli/), so a source
// changed since the last build would be tested as it was before the change. Nothing runs until
// dist/ is the build of these sources (scripts/build-stamp.mjs compares their contents).
export function assertFreshBuild(root: string): void {
  const problem: string | null = staleBuild(root);
  if (problem !== null) throw new Error(`safe-run's tests: ${problem}`);
}

export default function requireFreshBuild(): void {
  assertFreshBuild(ROOT);
}
