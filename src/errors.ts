import type { RequestErrorCode } from './types.js';

// The command line is several bundles, each with its own copy of these classes (scripts/build-cli.mjs),
// so an error is recognised by brands that every copy shares, never by `instanceof`. Each class adds
// its own brand, so a subclass keeps its parents' (a Refusal is a RequestError too).
const brandKey = (kind: string) => Symbol.for(`safe-run.error.${kind}`);

export function brandError(error: Error, kind: string): void {
  Object.defineProperty(error, brandKey(kind), { value: true, enumerable: false });
}

export function isBranded(value: unknown, kind: string): boolean {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brandKey(kind)] === true
  );
}

// Problems with the request itself (bad flag, refused syntax, invalid spec). They are raised before
// anything starts and become exit 125 in exactly one place, the CLI's exit path. Everything that
// happens to a stage is data in its result, never one of these.
export class RequestError extends Error {
  // One of REQUEST_ERROR_CODES (src/model/request-error-codes.ts): public in `--json` errors.
  readonly code: RequestErrorCode;
  // 1-based column in the text the problem is in (an inline pipeline), when there is one.
  readonly column: number | null;

  constructor(code: RequestErrorCode, message: string, column: number | null = null) {
    super(message);
    this.name = 'RequestError';
    this.code = code;
    this.column = column;
    brandError(this, 'request');
  }
}

// A RequestError or any error made from one (a Refusal of -c text).
export function isRequestError(value: unknown): value is RequestError {
  return isBranded(value, 'request');
}

// safe-run was told to stop (SIGINT, SIGTERM, SIGHUP) while it waited for something before any stage
// started (a spec or report FIFO without a partner): one line, and the exit code a shell gives for it.
export class StoppedError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'StoppedError';
    this.exitCode = exitCode;
    brandError(this, 'stopped');
  }
}

export function isStoppedError(value: unknown): value is StoppedError {
  return isBranded(value, 'stopped');
}
