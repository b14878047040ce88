import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

// Every relative import of every file in src/, type-only ones included: a type import is still an
// arrow a reader has to follow.
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/g)].map(
      (match) => path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')),
    );
    graph.set(file, targets);
  }
  return graph;
}

function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!.replace(/\.ts$/, '');

// Data flows one way: inputs -> plan -> engine -> report -> reporters. A folder on the left never
// imports one on the right.
const FORBIDDEN: [string, string[]][] = [
  ['types', ['engine', 'facts', 'cli', 'reporters', 'teardown', 'capture', 'policy']],
  // The data model is the leaf every folder imports: it imports none of them.
  [
    'model',
    [
      'types',
      'settings',
      'shell',
      'inputs',
      'spec-file',
      'engine',
      'facts',
      'cli',
      'reporters',
      'teardown',
      'capture',
      'policy',
      'hang',
      'output',
      'mcp',
      'agent',
      'outcome-text',
    ],
  ],
  // The words of outcomes are rendered from the data alone: whoever decides or prints imports them.
  [
    'outcome-text',
    ['settings', 'inputs', 'spec-file', 'shell', 'engine', 'policy', 'output', 'cli', 'reporters', 'mcp'],
  ],
  // A request is read in this order: settings (the table, units, defaults), then inputs and spec
  // files, then the -c front end; the delivery of --output (output/) comes after the run.
  ['settings', ['inputs', 'spec-file', 'shell', 'engine', 'output', 'cli', 'mcp']],
  ['inputs', ['spec-file', 'shell', 'engine', 'output', 'cli', 'mcp']],
  ['spec-file', ['shell', 'engine', 'output', 'cli', 'mcp']],
  ['shell', ['output', 'cli', 'mcp', 'reporters']],
  ['facts', ['engine', 'cli', 'reporters']],
  ['teardown', ['engine', 'cli', 'reporters', 'facts']],
  ['capture', ['engine', 'cli', 'reporters']],
  ['policy', ['engine', 'cli', 'reporters']],
  ['engine', ['cli', 'reporters']],
  ['reporters', ['engine', 'cli']],
];

describe('the import graph of src/', () => {
  it('has no cycle', () => {
    const cycle = findCycle(importGraph());
    expect(cycle === null ? null : cycle.map((file) => path.relative(SRC, file))).toBeNull();
  });

  it('has no arrow against the flow of data between folders', () => {
    const backArrows: string[] = [];
    for (const [file, targets] of importGraph()) {
      const rule = FORBIDDEN.find(([from]) => from === folderOf(file));
      for (const target of targets) {
        if (rule?.[1].includes(folderOf(target)))
          backArrows.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      }
    }
    expect(backArrows).toEqual([]);
  });
});
