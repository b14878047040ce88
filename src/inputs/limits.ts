import { isUtf8 } from 'node:buffer';
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

// A spec file's bytes as text. A NUL byte or a byte that is not UTF-8 means it is not the YAML or
// JSON text a person wrote (a binary, a Latin-1 file): refused in one line, rather than decoded into
// U+FFFD that would reach a stage's argv altered, or a parser's pages of errors about the garbage.
export function specText(bytes: Buffer, label: string): string {
  const nul = bytes.indexOf(0);
  if (nul === -1 && isUtf8(bytes)) return bytes.toString('utf8');
  const text = bytes.toString('utf8');
  const at = nul !== -1 ? nul : Buffer.byteLength(text.slice(0, text.indexOf('\uFFFD')));
  const what = nul !== -1 ? 'a NUL byte' : 'a byte that is not UTF-8';
  return refuse(label, `is not text: ${what} at offset ${at}; a spec file is YAML or JSON in UTF-8`);
}

function refuse(label: string, message: string): never {
  throw new RequestError('spec.syntax', `${label}: ${message}`);
}
