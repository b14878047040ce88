import fs from 'node:fs';
import type { Bytes } from '../syntax/source.js';
import type { ExpandEnv } from './env.js';
import type { Chunk } from './fields.js';
import { scalarOf } from './variable.js';

// ~, ~+, ~- and ~user at the start of written text (up to a /, or a : in an assignment): the
// directory as one quoted piece, and the text after the prefix. Null when it does not expand.
export function tildeChunk(
  text: Bytes,
  assignment: boolean,
  env: ExpandEnv,
): { chunk: Chunk; rest: Bytes } | null {
  const end = text.search(assignment ? /[/:]/ : /\//);
  const prefix = text.slice(1, end < 0 ? text.length : end);
  const rest = end < 0 ? '' : text.slice(end);
  if (/[\\'"]/.test(prefix)) return null;
  const dir = directoryOf(prefix, env);
  if (dir === null) return null;
  return { chunk: { text: dir, quoted: true, split: false }, rest };
}

function directoryOf(prefix: string, env: ExpandEnv): Bytes | null {
  if (prefix === '') return scalarOf(env.vars.get('HOME')) ?? homeFromPasswd(null);
  if (prefix === '+') return scalarOf(env.vars.get('PWD'));
  if (prefix === '-') return scalarOf(env.vars.get('OLDPWD'));
  if (/^[A-Za-z0-9._][A-Za-z0-9._-]*$/.test(prefix)) return homeFromPasswd(prefix);
  return null;
}

// The home directory of a user in /etc/passwd (the current one when null), as getpwnam gives it here.
function homeFromPasswd(user: string | null): Bytes | null {
  let text: string;
  try {
    text = fs.readFileSync('/etc/passwd', 'latin1');
  } catch {
    return null;
  }
  const uid = process.getuid?.() ?? -1;
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length < 7) continue;
    if (user === null ? Number(fields[2]) === uid : fields[0] === user) return fields[5]!;
  }
  return null;
}
