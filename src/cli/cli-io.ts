import type { RawInput } from './raw-bytes.js';

// Where the CLI reads its environment and writes its output; injectable so it can run in-process.
export interface CliIO {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  // The shell closed safe-run's stdout (`>&-`): Node put /dev/null there (src/cli/stdout-state.ts).
  stdoutClosed?: boolean;
  // The arguments and environment as bytes (src/cli/raw-bytes.ts); absent: not checked.
  raw?: RawInput | null;
}
