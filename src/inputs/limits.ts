import { RequestError } from '../errors.js';

// Caps on what one request may hold, documented in docs/cli.md. Far above any real pipeline, they
// keep a generated or corrupt input from costing minutes (or all memory) before it is refused.
export const MAX_STAGES = 10_000;
export const MAX_TEXT_BYTES = 1024 * 1024;

// `what` names the input: "-c", "pipeline.yaml".
export function checkStageCount(count: number, what: string): void {
  if (count > MAX_STAGES) {
    throw new RequestError(
      'usage.too-many-stages',
      `${what}: ${count} stages; at most ${MAX_STAGES} are accepted (split the work into several runs)`,
    );
  }
}

export function textTooLarge(what: string): RequestError {
  return new RequestError(
    'usage.too-large',
    `${what}: more than ${MAX_TEXT_BYTES} bytes (1MiB), the most a pipeline text may hold`,
  );
}

export function checkTextSize(text: string, what: string): void {
  if (Buffer.byteLength(text) > MAX_TEXT_BYTES) throw textTooLarge(what);
}
