// Problems with the request itself (bad flag, refused syntax, invalid spec). They are raised before
// anything starts and become exit 125 in exactly one place, the CLI's exit path. Everything that
// happens to a stage is data in its result, never one of these.
export class RequestError extends Error {
  readonly code: string;
  // 1-based column in the text the problem is in (an inline pipeline), when there is one.
  readonly column: number | null;

  constructor(code: string, message: string, column: number | null = null) {
    super(message);
    this.name = 'RequestError';
    this.code = code;
    this.column = column;
  }
}

export function isRequestError(value: unknown): value is RequestError {
  return value instanceof RequestError;
}

// safe-run was told to stop (SIGINT, SIGTERM, SIGHUP) while it waited for something before any stage
// started (a spec or report FIFO without a partner): one line, and the exit code a shell gives for it.
export class StoppedError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'StoppedError';
    this.exitCode = exitCode;
  }
}
