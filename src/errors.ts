// Problems with the request itself (bad flag, refused syntax, invalid spec). They are raised before
// anything starts and become exit 125 in exactly one place, the CLI's exit path. Everything that
// happens to a stage is data in its result, never one of these.
export class RequestError extends Error {
  readonly code: string;
  // 1-based column in the -c text that the problem is about, when there is one.
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
