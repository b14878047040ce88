import { existsSync, readFileSync } from 'node:fs';

// Node decodes the environment as UTF-8: a value such as $'caf\xe9' reads as "caf\ufffd" and would
// reach a stage as 63 61 66 ef bf bd. Node's spawn takes strings only, so such a stage is started
// through a trampoline that sets the environment from bytes and execs the program in place (same
// pid, group and session): perl, whose exec takes argv[0] apart from the file and whose strings hold
// any byte. perl starts with an empty environment, so nothing in the user's (PERL5OPT) changes it.
const PERL = '/usr/bin/perl';

// /proc/self/environ shows the environment this process started with, which nothing in it rewrites
// (setenv, and so process.env, puts new values elsewhere): read once, it holds for the process's
// life. A run's environment may differ from it; trampolineFor keeps an entry's bytes only while the
// run's value is still the one Node decoded from them. A failed read (no descriptor left) is not
// kept: the next stage reads again.
let cached: ReadonlyMap<string, Buffer> | null = null;

// The entries whose bytes are not UTF-8: the name as Node decoded it -> the entry's raw bytes.
export function undecodableEnvironment(): ReadonlyMap<string, Buffer> {
  if (cached) return cached;
  let bytes: Buffer;
  try {
    bytes = readFileSync('/proc/self/environ');
  } catch {
    return new Map();
  }
  const found = new Map<string, Buffer>();
  let start = 0;
  for (let end = bytes.indexOf(0); end !== -1; end = bytes.indexOf(0, start)) {
    const entry = bytes.subarray(start, end);
    start = end + 1;
    if (Buffer.from(entry.toString('utf8')).equals(entry)) continue;
    const eq = entry.indexOf(0x3d);
    if (eq > 0) found.set(entry.subarray(0, eq).toString('utf8'), entry);
  }
  cached = found;
  return cached;
}

interface Trampoline {
  file: string;
  args: string[];
}

// The spawn that starts `file` with `argv` and exactly `env`, where the entries in `raw` are given as
// their original bytes. Null when nothing needs it, or when perl is missing (the entries then arrive
// as Node decoded them, as before).
export function trampolineFor(
  file: string,
  argv: readonly string[],
  env: Record<string, string>,
  raw: ReadonlyMap<string, Buffer>,
): Trampoline | null {
  const keep = [...raw].filter(
    ([name, entry]) => env[name] === entry.toString('utf8').slice(name.length + 1),
  );
  if (keep.length === 0 || !existsSync(PERL)) return null;
  const sets = Object.entries(env)
    .filter(([name]) => !keep.some(([kept]) => kept === name))
    .map(([name, value]) => perlSet(Buffer.from(name), Buffer.from(value)));
  for (const [name, entry] of keep) {
    sets.push(perlSet(Buffer.from(name), entry.subarray(Buffer.byteLength(name) + 1)));
  }
  const script = `${sets.join('')}exec { $ARGV[0] } @ARGV[1..$#ARGV]; print STDERR "safe-run: cannot run $ARGV[0]: $!\\n"; exit($!{EACCES} ? 126 : 127);`;
  return { file: PERL, args: ['-e', script, file, ...argv] };
}

function perlSet(name: Buffer, value: Buffer): string {
  return `$ENV{"${perlBytes(name)}"}="${perlBytes(value)}";`;
}

// Every byte that is not a plain printable character as \xNN, so the script text is ASCII.
function perlBytes(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    const plain = byte >= 0x20 && byte < 0x7f && !'\\"$@%'.includes(String.fromCharCode(byte));
    out += plain ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}
