import { EMPTY, LF } from './cut-points.js';

// The lines of a stage's output that the GitHub Actions runner reads as its own commands, as the
// runner (actions/runner, ActionCommand.cs) reads them:
// - "::name props::data": the line, once leading blanks are trimmed, starts with "::", and a second
//   "::" ends the name and its properties (props split at ",", values decoded %0D %0A %3A %2C %25;
//   data decoded %0D %0A %25, in that order).
// - "##[name props]data", the older form, found anywhere in the line (props split at ";"; values
//   and data decoded %3B %0D %0A %5D %25, in that order).
// Names are compared without case. safe-run passes such lines on as written, at the start of a line,
// and registers the value of an add-mask command in its own masker from then on.

const V2 = /^\s*::([^\s:]+)(?:\s[\s\S]*?)?::/;
const V1 = /##\[([^\s\]]+)[^\]]*\]/;

// True when the runner would read `line` (no newline) as a command.
export function isWorkflowCommand(line: string): boolean {
  return V2.test(line) || (line.includes('##[') && V1.test(line));
}

function decode(text: string, pairs: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [code, char] of pairs) out = out.replaceAll(code, char);
  return out;
}

const V2_DATA = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
] as const;
const V1_DATA = [
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
] as const;

// The value an add-mask command on `line` registers, decoded as the runner decodes it; null when
// the line registers nothing (not that command, or a value of blanks only, which the runner refuses).
export function addedMask(line: string): string | null {
  const v2 = V2.exec(line);
  let value: string | null = null;
  if (v2) {
    if (v2[1]!.toLowerCase() === 'add-mask') value = decode(line.slice(v2.index + v2[0].length), V2_DATA);
  } else {
    const v1 = V1.exec(line);
    if (v1 && v1[1]!.toLowerCase() === 'add-mask')
      value = decode(line.slice(v1.index + v1[0].length), V1_DATA);
  }
  value = value?.replace(/\r$/, '') ?? null;
  return value === null || value.trim() === '' ? null : value;
}

// One piece of a chunk: `mask` is set on the piece that is the end of an add-mask line (from the
// line's start, or the chunk's when the line began in an earlier chunk, through its newline).
interface CommandPiece {
  bytes: Buffer;
  mask: string | null;
}

// The longest line looked at; a longer one is passed on and never read as a command.
const MAX_LINE = 64 * 1024;
const COLONS = Buffer.from('::');
const OLD_FORM = Buffer.from('##[');

// Cuts a byte stream around its add-mask lines, so that the value is registered after its own line
// went out and before anything that follows it. Bytes are only searched when the chunk (with the
// end of the line before it) holds "::" or "##[": most output costs two byte searches.
export class MaskCommandScanner {
  // The bytes of the line still open at the end of the last chunk (at most MAX_LINE).
  private line: Buffer = EMPTY;
  private overlong = false;

  split(chunk: Buffer): CommandPiece[] {
    const joined = this.line.length === 0 ? chunk : Buffer.concat([this.line.subarray(-2), chunk]);
    const maybe = joined.indexOf(COLONS) !== -1 || joined.indexOf(OLD_FORM) !== -1 || this.mayHold();
    if (!maybe) {
      this.keepOpenLine(chunk, 0);
      return [{ bytes: chunk, mask: null }];
    }
    const pieces: CommandPiece[] = [];
    let from = 0;
    let lineStart = 0;
    for (let newline = chunk.indexOf(LF); newline !== -1; newline = chunk.indexOf(LF, lineStart)) {
      const value = this.valueOf(chunk, lineStart, newline);
      if (value !== null) {
        if (lineStart > from) pieces.push({ bytes: chunk.subarray(from, lineStart), mask: null });
        pieces.push({ bytes: chunk.subarray(lineStart, newline + 1), mask: value });
        from = newline + 1;
      }
      this.line = EMPTY;
      this.overlong = false;
      lineStart = newline + 1;
    }
    if (from < chunk.length) pieces.push({ bytes: chunk.subarray(from), mask: null });
    this.keepOpenLine(chunk, lineStart);
    return pieces;
  }

  // The open line so far holds the start of a command.
  private mayHold(): boolean {
    return this.line.indexOf(COLONS) !== -1 || this.line.indexOf(OLD_FORM) !== -1;
  }

  private valueOf(chunk: Buffer, start: number, end: number): string | null {
    if (this.overlong || this.line.length + end - start > MAX_LINE) return null;
    const bytes =
      this.line.length === 0
        ? chunk.subarray(start, end)
        : Buffer.concat([this.line, chunk.subarray(start, end)]);
    return addedMask(bytes.toString('utf8'));
  }

  private keepOpenLine(chunk: Buffer, from: number): void {
    const newline = chunk.lastIndexOf(LF);
    const start = Math.max(from, newline + 1);
    if (newline !== -1) {
      this.line = EMPTY;
      this.overlong = false;
    }
    if (this.overlong || start >= chunk.length) return;
    if (this.line.length + chunk.length - start > MAX_LINE) {
      this.line = EMPTY;
      this.overlong = true;
      return;
    }
    this.line = Buffer.concat([this.line, chunk.subarray(start)]);
  }
}
