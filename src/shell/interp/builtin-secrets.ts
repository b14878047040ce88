import { maskBuffer, planSecrets } from '../../capture/mask.js';
import { MaskCommandScanner } from '../../capture/workflow-commands.js';
import { maskKept } from '../../engine/report/mask-learned.js';
import type { StreamReport } from '../../types.js';
import type { Runtime } from './runtime.js';

// What the text's own output (a builtin's `echo`, an error message, set -x) does with secrets, as a
// program's output does in the engine (stream-sinks.ts): the run's secrets are masked in what goes
// to the run's stderr and in what the report keeps, and a ::add-mask:: line (`echo
// "::add-mask::$TOKEN"` in a GitHub step) registers its value in the run's masks from then on.

interface RunSecrets {
  env: readonly string[];
  // One per stream (stdout, stderr): a command line may come in several writes.
  scanners: readonly [MaskCommandScanner, MaskCommandScanner];
}

const BY_RUN = new WeakMap<Runtime, RunSecrets>();

function secretsOf(rt: Runtime): RunSecrets {
  let known = BY_RUN.get(rt);
  if (!known) {
    const env = planSecrets({ stages: [], settings: rt.settings }, rt.environment);
    known = { env, scanners: [new MaskCommandScanner(), new MaskCommandScanner()] };
    BY_RUN.set(rt, known);
  }
  return known;
}

function allSecrets(rt: Runtime): readonly string[] {
  const { env } = secretsOf(rt);
  return rt.io.masks && rt.io.masks.length > 0 ? [...env, ...rt.io.masks] : env;
}

// The bytes to write to the run's stdout (fd 1, the product: as written) or stderr (fd 2: masked,
// except a ::add-mask:: line, which the runner must read as written); registers added masks.
export function shownOutput(rt: Runtime, fd: 1 | 2, bytes: Buffer): Buffer {
  const masks = rt.io.masks ?? null;
  const pieces = masks ? secretsOf(rt).scanners[fd - 1]!.split(bytes) : [{ bytes, mask: null }];
  const out: Buffer[] = [];
  for (const piece of pieces) {
    const secrets = fd === 2 && piece.mask === null ? allSecrets(rt) : [];
    out.push(secrets.length > 0 ? maskBuffer(piece.bytes, secrets) : piece.bytes);
    if (masks && piece.mask !== null && !masks.includes(piece.mask)) masks.push(piece.mask);
  }
  return out.length === 1 ? out[0]! : Buffer.concat(out);
}

// A builtin's kept stream with the run's secrets masked, as a program's is when it is kept.
export function keptOutput(rt: Runtime, stream: StreamReport): StreamReport {
  const secrets = allSecrets(rt);
  return secrets.length > 0 ? maskKept(stream, secrets) : stream;
}
