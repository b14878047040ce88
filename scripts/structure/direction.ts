import type { ImportGraph } from './import-graph.js';

// The directions imports may take between the parts of src/ (docs/architecture.md): data flows one
// way, inputs -> plan -> engine -> report -> reporters, and the data model depends on nothing.

// Files of src/ named by where they are, relative to src/: 'engine/' is every file under
// src/engine/, 'types.ts' one file. `in`: the files under any of them but those `except` names;
// `notIn`: every other file.
export type Places = { in: readonly string[]; except?: readonly string[] } | { notIn: readonly string[] };

// No file of `from` imports a file of `to`, its own files aside.
export interface DirectionRule {
  from: Places;
  to: Places;
  // The promise the rule keeps, shown beside each import that breaks it.
  why: string;
}

// What reads a request and makes a plan of it: the engine is given the plan, never these.
const INPUTS = [
  'inputs/',
  'spec-file/',
  'settings/',
  'shell/',
  'cli/',
  'mcp/',
  'session/',
  'plan.ts',
  'run.ts',
  'index.ts',
];

// The value lists of model/ (each the one list of its words, with the type derived from it), which
// their users import directly: they are data, not types to pass around.
const MODEL_VALUE_LISTS = [
  'model/setting-values.ts',
  'model/bash-builtins.ts',
  'model/bash-reserved-words.ts',
  'model/bash-variables.ts',
  'model/request-error-codes.ts',
];

export const DIRECTION_RULES: readonly DirectionRule[] = [
  { from: { in: ['model/'] }, to: { notIn: ['model/'] }, why: 'model/ imports nothing else of safe-run' },
  { from: { in: ['types.ts'] }, to: { notIn: ['model/'] }, why: 'types.ts only re-exports model/' },
  {
    from: { notIn: ['model/', 'types.ts', 'shell/syntax/nodes.ts'] },
    to: { in: ['model/'], except: MODEL_VALUE_LISTS },
    why: "model/'s types are imported through types.ts (the syntax tree's through shell/syntax/nodes.ts)",
  },
  { from: { in: ['engine/'] }, to: { in: INPUTS }, why: 'the engine never imports an input' },
  {
    from: { in: ['engine/'] },
    to: { in: ['reporters/', 'output/'] },
    why: 'the engine hands its Report on: reporters and --output come after it',
  },
  { from: { in: ['reporters/'] }, to: { in: ['engine/', 'cli/'] }, why: 'a reporter reads the Report only' },
  {
    from: { in: ['settings/'] },
    to: { in: ['inputs/', 'spec-file/', 'shell/', 'engine/', 'output/', 'cli/', 'mcp/'] },
    why: 'a request is read in order: settings, then inputs and spec files, then -c text',
  },
  {
    from: { in: ['inputs/'] },
    to: { in: ['spec-file/', 'shell/', 'engine/', 'output/', 'cli/', 'mcp/'] },
    why: 'a request is read in order: settings, then inputs and spec files, then -c text',
  },
  {
    from: { in: ['spec-file/'] },
    to: { in: ['shell/', 'engine/', 'output/', 'cli/', 'mcp/'] },
    why: 'a request is read in order: settings, then inputs and spec files, then -c text',
  },
  {
    from: { in: ['shell/'] },
    to: { in: ['output/', 'cli/', 'mcp/', 'reporters/'] },
    why: 'the -c front end makes plans and runs them; it neither delivers nor reports',
  },
  {
    from: { in: ['facts/', 'capture/', 'policy/'] },
    to: { in: ['engine/', 'cli/', 'reporters/'] },
    why: 'the engine uses these parts, never the reverse',
  },
  {
    from: { in: ['outcome-text/'] },
    to: { in: [...INPUTS, 'engine/', 'policy/', 'output/', 'reporters/'] },
    why: 'the words of an outcome are rendered from the data alone: who decides or prints imports them',
  },
  {
    from: { in: ['teardown/'] },
    to: { in: ['engine/', 'cli/', 'reporters/', 'facts/'] },
    why: 'the engine uses teardown/, never the reverse',
  },
];

const under = (file: string, places: readonly string[], dir: string) =>
  places.some((place) =>
    place.endsWith('/') ? file.startsWith(`${dir}/${place}`) : file === `${dir}/${place}`,
  );

const within = (file: string, places: Places, dir: string) =>
  'in' in places
    ? under(file, places.in, dir) && !under(file, places.except ?? [], dir)
    : !under(file, places.notIn, dir);

// Every import that breaks a rule, as 'src/a/x.ts -> src/b/y.ts: why'.
export function backArrows(graph: ImportGraph, rules: readonly DirectionRule[], dir = 'src'): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const broken = rules.find(
        (rule) =>
          within(file, rule.from, dir) && within(target, rule.to, dir) && !within(target, rule.from, dir),
      );
      if (broken) found.push(`${file} -> ${target}: ${broken.why}`);
    }
  }
  return found;
}
