import type { Fact } from './fold-facts.js';

// One line for the table under a stage and for `safe-run facts`, e.g.
// "`poetry` could not be started 13 times since 17:21 (ENOENT: not on PATH)".
export function describeFact(fact: Fact, now: Date = new Date()): string {
  const times =
    fact.count === 1
      ? `once, at ${when(fact.firstSeen, now)}`
      : `${fact.count} times since ${when(fact.firstSeen, now)}`;
  const text = `\`${fact.program}\` could not be started ${times} (${fact.code}: ${causeInWords(fact)})`;
  if (fact.resolvedAt === null) return text;
  return `${text}; it started at ${when(fact.resolvedAt, now)} (${fact.resolvedPath})`;
}

function causeInWords(fact: Pick<Fact, 'cause' | 'interpreter' | 'exitCode'>): string {
  switch (fact.cause) {
    case 'not-on-path':
      return 'not on PATH';
    case 'no-such-file':
      return 'no such file';
    case 'not-executable':
      return 'not executable';
    case 'is-directory':
      return 'a directory, not a program';
    case 'missing-interpreter': {
      const state = fact.exitCode === 127 ? 'missing' : 'not usable';
      return fact.interpreter
        ? `interpreter ${fact.interpreter.replace(/\r/g, '\\r')} ${state}`
        : `interpreter ${state}`;
    }
    case 'bad-format':
      return 'not a program this machine can run';
    case 'builtin':
      return 'a shell builtin, not a program';
    default:
      return fact.cause;
  }
}

// Local time: "17:21" today, "2025-03-04 17:21" on another day.
function when(iso: string, now: Date): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const sameDay =
    date.getFullYear() === now.getFullYear() &&
    date.getMonth() === now.getMonth() &&
    date.getDate() === now.getDate();
  return sameDay ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}
