import { secretValuesFromEnv } from '../capture/mask.js';
import { maskShortened } from '../capture/mask-cut.js';
import type { RequestError } from '../errors.js';
import { settingRows } from '../settings/table.js';
import { cliFlagRows } from './flag-table.js';
import { refusalSummary } from './refusal-advice.js';
import { ENV_OPTIONS, splitWords } from './split-words.js';

interface Output {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

// Flags whose next word is their value, not a flag (so `-c --json` does not ask for JSON), from the
// two tables: a CLI-only flag with an <arg> ('-c, --command <text>' gives -c and --command), and a
// setting whose kind takes one.
const TAKES_VALUE = new Set([
  ...cliFlagRows().flatMap((row) => (row.flags.includes(' <') ? row.flags.split(' <')[0]!.split(', ') : [])),
  ...settingRows().flatMap((row) => ((row.arg ?? row.kind.arg) === null ? [] : [row.flag])),
]);

// The flags as written, up to the command: [flag, value] pairs, from SAFE_RUN_OPTIONS and then the
// command line. Read without the parser, since the parser may be what refused the request.
function writtenFlags(args: readonly string[], env: NodeJS.ProcessEnv): [string, string | null][] {
  let fromEnv: string[] = [];
  try {
    fromEnv = splitWords(env[ENV_OPTIONS] ?? '', ENV_OPTIONS);
  } catch {
    // Its own refusal is being printed; the command line still counts.
  }
  const flags: [string, string | null][] = [];
  for (const words of [fromEnv, args]) {
    for (let i = 0; i < words.length; i += 1) {
      const word = words[i]!;
      if (word === '--' || !word.startsWith('-')) break;
      const eq = word.indexOf('=');
      if (word.startsWith('--') && eq > 0) flags.push([word.slice(0, eq), word.slice(eq + 1)]);
      else if (TAKES_VALUE.has(word)) flags.push([word, words[++i] ?? null]);
      else if (word === '--json' && (words[i + 1] === 'compact' || words[i + 1] === 'full'))
        flags.push([word, words[++i]!]);
      else flags.push([word, null]);
    }
  }
  return flags;
}

// Messages quote a value cut to its first 40 characters (then …) and JSON-escaped: those forms of
// a secret are masked too.
function withQuotedForms(secrets: readonly string[]): string[] {
  const forms = secrets.flatMap((secret) => [
    secret,
    secret.slice(0, 40),
    JSON.stringify(secret).slice(1, -1),
  ]);
  return [...new Set(forms)].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

// Any message about a request that did not run (refused, stopped, or failed inside safe-run), with
// the secrets of its environment and of its --mask names masked, also in their quoted forms.
export function maskRequestText(text: string, args: readonly string[], env: NodeJS.ProcessEnv): string {
  const names = writtenFlags(args, env).flatMap(([flag, value]) =>
    flag === '--mask' && value !== null ? [value] : [],
  );
  return maskShortened(text, withQuotedForms(secretValuesFromEnv(env, names)));
}

// The one way a refused request is told: every secret masked (secret-looking variables and the
// --mask names), one `safe-run:` line per message line on stderr, and under --json (if it was seen
// at all) a JSON error document on stdout, so that a caller parsing stdout always gets JSON.
export function printRefusal(error: RequestError, args: readonly string[], io: Output): void {
  const flags = writtenFlags(args, io.env);
  const message = maskRequestText(error.message, args, io.env);
  const json = flags.filter(([flag]) => flag === '--json');
  if (json.length > 0) {
    const document = {
      schemaVersion: 1,
      ok: false,
      exitCode: 125,
      ...refusalSummary(error, message),
      error: { code: error.code, column: error.column, message },
    };
    const compact = json.some(([, format]) => format === 'compact');
    io.stdout.write(`${compact ? JSON.stringify(document) : JSON.stringify(document, null, 2)}\n`);
  }
  io.stderr.write(
    `${message
      .split('\n')
      .map((line) => `safe-run: ${line}`)
      .join('\n')}\n`,
  );
}
