import { readFileSync } from 'node:fs';
import { RequestError } from '../errors.js';

// The arguments as the kernel gave them, before Node decoded them as UTF-8 (a byte that is not UTF-8
// becomes U+FFFD, and would reach the stage as ef bf bd). Null without /proc. (The environment is
// passed unchanged instead: src/engine/raw-environment.ts.)
export interface RawInput {
  args: Buffer[];
}

export function readRawInput(argCount: number): RawInput | null {
  try {
    const split = (file: string) => {
      const parts: Buffer[] = [];
      const bytes = readFileSync(file);
      let start = 0;
      for (let i = bytes.indexOf(0); i !== -1; i = bytes.indexOf(0, start)) {
        parts.push(bytes.subarray(start, i));
        start = i + 1;
      }
      return parts;
    };
    // Node's own options come before the script; the user's words are the last ones.
    const args = split('/proc/self/cmdline');
    return { args: args.slice(Math.max(0, args.length - argCount)) };
  } catch {
    return null;
  }
}

const isUtf8 = (bytes: Buffer) => Buffer.from(bytes.toString('utf8')).equals(bytes);

// Printable ASCII as itself, every other byte as \xNN: what the user typed, in one safe line.
function escaped(bytes: Buffer): string {
  const shown = [...bytes.subarray(0, 60)]
    .map((byte) =>
      byte >= 0x20 && byte < 0x7f && byte !== 0x5c
        ? String.fromCharCode(byte)
        : `\\x${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
  return bytes.length > 60 ? `${shown}…` : shown;
}

// safe-run hands stages their arguments through Node, which takes text only, and a word may become
// several stages' words through the inline grammar: a word that is not UTF-8 would arrive altered, so
// it is refused before anything starts, by position, with a way that works.
export function refuseNonUtf8(raw: RawInput | null): void {
  if (raw === null) return;
  const arg = raw.args.findIndex((bytes) => !isUtf8(bytes));
  if (arg !== -1) {
    throw new RequestError(
      'input.not-utf8',
      `word ${arg + 1} after safe-run, "${escaped(raw.args[arg]!)}", is not valid UTF-8 and would reach the stage altered; ` +
        "pass it inside a shell's text instead: safe-run -- bash -c 'exec PROGRAM $'\\''\\xNN...'\\'''",
    );
  }
}
