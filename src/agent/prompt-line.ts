import { monotonicMs } from '../monotonic-ms.js';
import type { StopCause } from '../types.js';

// Recognises the last line a program printed before it went quiet as a question for a human: a
// program that asks and then waits for an answer that never comes (stdin closed, no terminal) would
// otherwise sit until the time limit.

// Kept to what interactive tools print in front of a pause: a yes/no choice, a secret, an
// explicit "press a key". A line must also end like a question (":", "?", "]", ")", ">") once
// trailing blanks are gone, so "Continue? [y/N] " counts and "continued in 3s..." does not.
const PATTERNS: RegExp[] = [
  /[[(]\s*(?:y\/n|yes\/no|y\/n\/q|y\/n\/a|yes\/no\/\[fingerprint\])\s*[\])]/i,
  /\b(?:password|passphrase|passcode|pin|otp|token)\b[^:]{0,40}:$/i,
  /^(?:username|login|user name|email)\b.{0,80}:$/i,
  // npm init and friends: "package name: (demo)", a field with its default in parentheses.
  /^[a-z][\w ]{0,30}: \([^)]*\)$/i,
  /\b(?:continue|proceed|overwrite|replace|remove|delete|retry|confirm|are you sure)\b[^?]{0,60}\?$/i,
  /\bpress (?:any key|enter|return)\b/i,
  /^\(END\)$/,
  /\b(?:enter|type|choose|select)\b[^:?]{0,60}[:?]$/i,
];

const QUESTION_END = /[:?\])>]$/;

// The line (trimmed) when `text`'s last non-empty line reads as a prompt, else null.
export function promptIn(text: string): string | null {
  const lines = text.replace(/\r/g, '\n').split('\n');
  let line = '';
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    line = (lines[i] ?? '').trim();
    if (line.length > 0) break;
  }
  if (line.length === 0 || line.length > 200) return null;
  if (!QUESTION_END.test(line) && !/\bpress (?:any key|enter|return)\b/i.test(line)) return null;
  return PATTERNS.some((pattern) => pattern.test(line)) ? line : null;
}

// Keeps the tail of a stream (the last few hundred bytes) and when it last changed, so a supervisor
// can ask "has this stage been quiet since it printed a prompt?".
// A full-screen program (an editor, a pager) switches the terminal to its alternate screen first:
// nobody will ever type into it, whatever its last line says.
const ALT_SCREEN_ON = Buffer.from('\x1b[?1049h');
const ALT_SCREEN_OFF = Buffer.from('\x1b[?1049l');
const TAIL_BYTES = 400;

type PromptWait = Extract<StopCause, { kind: 'prompt' | 'full-screen' }>;

export class PromptWatch {
  private tail = '';
  private changedAt = monotonicMs();
  private fullScreen = false;

  // Only the chunk's last bytes are decoded: a stream of gigabytes costs a byte search per chunk.
  push(chunk: Buffer): void {
    const on = chunk.lastIndexOf(ALT_SCREEN_ON);
    const off = chunk.lastIndexOf(ALT_SCREEN_OFF);
    if (on !== off) this.fullScreen = on > off;
    const text = chunk.subarray(Math.max(0, chunk.length - TAIL_BYTES)).toString('utf8');
    this.tail = (this.tail + text).slice(-TAIL_BYTES);
    this.changedAt = monotonicMs();
  }

  // What the stage waits for when the stream has been quiet for at least `quietMs` after printing a
  // prompt (its line) or opening a full screen; else null.
  waitingPrompt(quietMs: number, now = monotonicMs()): PromptWait | null {
    if (now - this.changedAt < quietMs) return null;
    if (this.fullScreen) return { kind: 'full-screen' };
    const line = promptIn(this.tail);
    return line === null ? null : { kind: 'prompt', line };
  }
}
