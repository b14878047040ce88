import type { Bytes } from '../syntax/source.js';
import type { PartContext } from './expander-api.js';
import type { Chunk } from './fields.js';

// Written text as chunks: escapes as quoted characters, the rest as it reads in its style.
export function literalChunks(value: Bytes, context: PartContext): Chunk[] {
  const chunks: Chunk[] = [];
  const inQuotes = context.style === 'dq' || context.style === 'heredoc';
  const escapable = context.style === 'heredoc' ? '$`\\' : '$`"\\';
  const split = context.style === 'operand';
  let run = '';
  const flush = () => {
    if (run !== '') chunks.push({ text: run, quoted: inQuotes, split: split && !inQuotes });
    run = '';
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c !== '\\' || i + 1 >= value.length) {
      run += c;
      continue;
    }
    const next = value[i + 1]!;
    if (inQuotes && !escapable.includes(next)) {
      run += c;
      continue;
    }
    flush();
    chunks.push({ text: next, quoted: true, split: false });
    i++;
  }
  flush();
  return chunks;
}
