import { assignStageNames } from '../inputs/stage-names.js';
import type { FallbackInfo, StageSpec } from '../types.js';
import { checkSupported } from './interp/support.js';
import { isRefusal, nestingRefusal, tooDeep } from './refuse.js';
import type { Script } from './syntax/nodes.js';
import { parseScript } from './syntax/parse.js';
import { type Bytes, fromBytes, toBytes } from './syntax/source.js';
import { writtenCommands, writtenProgram } from './written-commands.js';

interface ParsedText {
  script: Script | null;
  source: Bytes;
  fallback: FallbackInfo | null;
}

// Parses -c text and checks, in one pass over the tree, that safe-run's interpreter runs every
// construct in it. A refusal becomes a fallback when the user asked for one; a syntax error never
// does (bash would reject the text too).
export function parseText(text: string, fallback: 'bash' | null): ParsedText {
  const source = toBytes(text);
  try {
    const script = parseScript(source, { bytes: true });
    checkSupported(script, source.includes('\n'));
    return { script, source, fallback: null };
  } catch (thrown) {
    const error = tooDeep(thrown) ? nestingRefusal() : thrown;
    if (fallback === 'bash' && isRefusal(error)) {
      return { script: null, source, fallback: { construct: error.construct, column: error.column ?? 1 } };
    }
    throw error;
  }
}

// One stage per simple command as written, for --ok-codes by name or index.
export function writtenStages(script: Script, blank: () => Omit<StageSpec, 'name' | 'argv'>): StageSpec[] {
  const programs = writtenCommands(script).map((command) => fromBytes(writtenProgram(command)));
  const names = assignStageNames(programs);
  return programs.map((program, i) => ({ ...blank(), name: names[i]!, argv: [program] }));
}
