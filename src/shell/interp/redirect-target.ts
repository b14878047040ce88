import type { Redirect } from '../syntax/nodes.js';
import { fromBytes } from '../syntax/source.js';
import type { RunnerApi } from './api.js';

// What a redirection's word names once expanded: a file, a descriptor to copy or close, a
// here-document's text, or a word that did not become one name (bash's "ambiguous redirect").
export type Target =
  | { kind: 'file'; path: string; mode: 'read' | 'write' | 'append' | 'readwrite'; clobber: boolean }
  | { kind: 'dup'; from: number; move: boolean }
  | { kind: 'close' }
  | { kind: 'text'; body: string }
  | { kind: 'ambiguous'; word: string };

// The descriptors a redirection changes: its explicit one, or the operator's own (&> both 1 and 2).
export function targetFds(redirect: Redirect, target: Target): number[] {
  if (redirect.op === '&>' || redirect.op === '&>>') return [1, 2];
  if (redirect.op === '>&' && redirect.fd === null && target.kind === 'file') return [1, 2];
  if (redirect.fd !== null) return [redirect.fd];
  return redirect.op.startsWith('<') ? [0] : [1];
}

const MODES: Record<string, 'read' | 'write' | 'append' | 'readwrite'> = {
  '<': 'read',
  '>': 'write',
  '>|': 'write',
  '>>': 'append',
  '&>': 'write',
  '&>>': 'append',
  '<>': 'readwrite',
  '>&': 'write',
};

// Expands a redirection's word as bash does when it performs the redirection.
export async function expandTarget(r: RunnerApi, redirect: Redirect): Promise<Target> {
  const { op } = redirect;
  if (op === '<<' || op === '<<-') {
    const doc = redirect.heredoc!;
    const body = doc.quoted
      ? doc.body.parts.map((p) => (p.kind === 'sq' ? p.value : '')).join('')
      : await r.ex.quotedText(doc.body.parts, 'heredoc');
    return { kind: 'text', body };
  }
  // A here-string's word is expanded as an assignment's value is (bash: ~ after : too).
  if (op === '<<<')
    return { kind: 'text', body: `${await r.ex.value(redirect.target, { assignment: true })}\n` };
  const fields = await r.ex.fields([redirect.target]);
  const written = fromBytes(redirect.target.raw ?? fields.join(' '));
  if (fields.length !== 1) return { kind: 'ambiguous', word: written };
  const word = fields[0]!;
  if (op === '<&' || op === '>&') {
    const dup = /^([0-9]+)(-?)$/.exec(word);
    if (dup) return { kind: 'dup', from: Number(dup[1]), move: dup[2] === '-' };
    if (word === '-') return { kind: 'close' };
    if (op === '<&' || redirect.fd !== null) return { kind: 'ambiguous', word: written };
  }
  return { kind: 'file', path: word, mode: MODES[op] ?? 'write', clobber: op === '>|' };
}
