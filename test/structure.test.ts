import { afterAll, describe, expect, it } from 'vitest';
import {
  backArrows,
  type Debt,
  DIRECTION_RULES,
  findCycles,
  importGraph,
  judgeStructure,
  longFiles,
  longFunctions,
  partGraph,
  projectRoot,
  readSources,
  type SourceFile,
  unusedExports,
} from '../scripts/structure/index.js';
import { putFile, type Scratch, scratchDir } from './helpers/index.js';

// The structure of src/ the team holds to (issue 9): no import cycle between files or between the
// parts of src/, no import against the direction the data flows (scripts/structure/direction.ts), no
// file over 250 lines, no function over 60, no export that no file imports.

// Must shrink to empty; each entry is a known debt. Issue 9's architecture work removes them; an
// entry that no longer matches fails the check too, so that it is deleted when it is paid.
const KNOWN_DEBT: Debt = {
  fileCycles: [],
  partCycles: [],
  backArrows: [],
  longFiles: [],
  longFunctions: [],
  unusedExports: [],
};

// Whose every export is used from outside src/: the library (package.json "main") and the command
// line's bundles (scripts/build-cli.mjs PROCESS_BUNDLES; its lazy bundles are reached through import()).
const ENTRY_POINTS = ['src/index.ts', 'src/cli/run-process.ts', 'src/cli/inspect-process.ts'];

describe('the structure of src/', () => {
  const root = projectRoot();
  const sources = readSources(root, 'src');
  const readers = [...sources, ...readSources(root, 'test'), ...readSources(root, 'scripts')];
  const judged = judgeStructure(sources, KNOWN_DEBT, { readers, entries: ENTRY_POINTS });
  it.each(Object.keys(judged) as (keyof Debt)[])(
    'has no %s beyond the known debt, and no paid debt listed',
    (kind) => {
      expect(judged[kind]).toEqual({ added: [], paid: [] });
    },
  );
});

// A tree of tiny synthetic sources: the check itself must be able to fail.
function tree(files: Record<string, string>): SourceFile[] {
  return Object.entries(files).map(([file, text]) => ({ file, text }));
}

const NO_DEBT: Debt = {
  fileCycles: [],
  partCycles: [],
  backArrows: [],
  longFiles: [],
  longFunctions: [],
  unusedExports: [],
};

describe('the structure check on a synthetic tree', () => {
  it('follows static, type-only, re-export and lazy imports, .js to .ts and folders to index.ts', () => {
    const graph = importGraph(
      tree({
        'src/a.ts': "import { b } from './b.js';\nimport type { C } from './c/index.js';",
        'src/b.ts': "export * from './d';\nexport const b = 1;",
        'src/c/index.ts': "const lazy = () => import('../a.js');",
        'src/d.ts': "import fs from 'node:fs';",
      }),
    );
    expect(Object.fromEntries(graph)).toEqual({
      'src/a.ts': ['src/b.ts', 'src/c/index.ts'],
      'src/b.ts': ['src/d.ts'],
      'src/c/index.ts': ['src/a.ts'],
      'src/d.ts': [],
    });
    expect(findCycles(graph)).toEqual([['src/a.ts', 'src/c/index.ts']]);
  });

  it('finds every cycle, a file importing itself included, and none in a one-way graph', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['e']],
      ['e', ['e']],
      ['f', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('sees a back-arrow between parts of src/ that no single file closes', () => {
    const sources = tree({
      'src/engine/run.ts': "import { f } from '../facts/record.js';",
      'src/facts/record.ts': "import type { Run } from '../engine/types.js';",
      'src/engine/types.ts': 'export type Run = {};',
    });
    expect(findCycles(importGraph(sources))).toEqual([]);
    expect(findCycles(partGraph(importGraph(sources)))).toEqual([['src/engine/', 'src/facts/']]);
  });

  it('fails on a new cycle, passes one that shrank inside a known cycle, and reports paid debt', () => {
    const sources = tree({
      'src/a.ts': "import './b.js';",
      'src/b.ts': "import './a.js';",
      'src/x.ts': "import './y.js';",
      'src/y.ts': "import './x.js';",
    });
    const debt = {
      ...NO_DEBT,
      fileCycles: [
        ['src/a.ts', 'src/b.ts', 'src/c.ts'],
        ['src/p.ts', 'src/q.ts'],
      ],
    };
    expect(judgeStructure(sources, debt).fileCycles).toEqual({
      added: ['src/x.ts <-> src/y.ts'],
      paid: ['src/p.ts <-> src/q.ts'],
    });
  });

  it('measures files and functions by lines, naming functions by where they live', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const sources = tree({
      'src/long.ts': [
        `export function declared() {\n${body(58)}\n}`,
        `export const assigned = () => {\n${body(61)}\n  const inner = function () {\n${body(60)}\n  };\n};`,
        `class K {\n  method() {\n${body(60)}\n  }\n}`,
        `[1].map((x) => {\n${body(60)}\n});`,
      ].join('\n'),
      'src/short.ts': 'export const one = 1;\n',
    });
    // declared: exactly 60 lines, the limit, so not listed.
    expect(longFunctions(sources)).toEqual([
      { name: 'src/long.ts:assigned', lines: 125 },
      { name: 'src/long.ts:assigned > inner', lines: 62 },
      { name: 'src/long.ts:method', lines: 62 },
      { name: 'src/long.ts:[1].map(callback)', lines: 62 },
    ]);
    expect(longFiles(sources)).toEqual([{ name: 'src/long.ts', lines: 311 }]);
    expect(judgeStructure(sources, { ...NO_DEBT, longFiles: ['src/short.ts'] }).longFiles).toEqual({
      added: ['src/long.ts (311 lines)'],
      paid: ['src/short.ts'],
    });
  });
});

// Trees written to a temporary directory and read back as src/ is: every way of importing a module
// counts, and each rule of docs/architecture.md can fail.
describe('the structure check on a synthetic tree on disk', () => {
  // Made by the first test that needs it, so that a run filtered to other tests leaves nothing.
  let scratch: Scratch | null = null;
  afterAll(() => scratch?.remove());
  const judge = (files: Record<string, string>) => {
    scratch ??= scratchDir('sr-structure-');
    const root = scratch.fresh();
    for (const [file, text] of Object.entries(files)) putFile(root, file, text);
    return judgeStructure(readSources(root, 'src'), NO_DEBT);
  };
  const arrows = (files: Record<string, string>) => judge(files).backArrows.added;

  it('catches the engine importing an input, however it is imported', () => {
    const inputs = { 'src/inputs/read.ts': 'export const read = 1;\n' };
    const input = 'the engine never imports an input';
    expect(arrows({ ...inputs, 'src/engine/run.ts': "import { read } from '../inputs/read.js';\n" })).toEqual(
      [`src/engine/run.ts -> src/inputs/read.ts: ${input}`],
    );
    expect(arrows({ ...inputs, 'src/engine/run.ts': "export { read } from '../inputs/read.js';\n" })).toEqual(
      [`src/engine/run.ts -> src/inputs/read.ts: ${input}`],
    );
    expect(
      arrows({ ...inputs, 'src/engine/run.ts': "export const later = () => import('../inputs/read.js');\n" }),
    ).toEqual([`src/engine/run.ts -> src/inputs/read.ts: ${input}`]);
    expect(
      arrows({ ...inputs, 'src/engine/run.ts': 'export const later = () => import(`../inputs/read.js`);\n' }),
    ).toEqual([`src/engine/run.ts -> src/inputs/read.ts: ${input}`]);
    expect(arrows({ ...inputs, 'src/engine/run.ts': "import '../inputs/read.js';\n" })).toEqual([
      `src/engine/run.ts -> src/inputs/read.ts: ${input}`,
    ]);
    expect(
      arrows({
        'src/spec-file/load.ts': 'export const load = 1;\n',
        'src/cli/main.ts': 'export const main = 1;\n',
        'src/engine/run.ts': "import '../spec-file/load.js';\nimport '../cli/main.js';\n",
      }),
    ).toEqual([
      `src/engine/run.ts -> src/cli/main.ts: ${input}`,
      `src/engine/run.ts -> src/spec-file/load.ts: ${input}`,
    ]);
  });

  it('catches a reporter importing the engine, and the model importing anything', () => {
    expect(
      arrows({
        'src/engine/stage.ts': 'export const stage = 1;\n',
        'src/reporters/table.ts': "import { stage } from '../engine/stage.js';\n",
        'src/format-units.ts': 'export const bytes = 1;\n',
        'src/model/report.ts': "import { bytes } from '../format-units.js';\n",
      }),
    ).toEqual([
      'src/model/report.ts -> src/format-units.ts: model/ imports nothing else of safe-run',
      'src/reporters/table.ts -> src/engine/stage.ts: a reporter reads the Report only',
    ]);
  });

  it("catches model/'s types imported around types.ts, and types.ts importing anything but model/", () => {
    expect(
      arrows({
        'src/model/plan.ts': 'export type Plan = {};\n',
        'src/engine/stage.ts': 'export type Stage = {};\n',
        'src/types.ts':
          "export type { Plan } from './model/plan.js';\nexport type { Stage } from './engine/stage.js';\n",
        'src/engine/run.ts': "import type { Plan } from '../model/plan.js';\n",
      }),
    ).toEqual([
      "src/engine/run.ts -> src/model/plan.ts: model/'s types are imported through types.ts (the syntax tree's through shell/syntax/nodes.ts)",
      'src/types.ts -> src/engine/stage.ts: types.ts only re-exports model/',
    ]);
  });

  it('passes imports that follow the data', () => {
    const judged = judge({
      'src/model/plan.ts': 'export type Plan = {};\n',
      'src/types.ts': "export type { Plan } from './model/plan.js';\n",
      'src/model/bash-builtins.ts': "export const BUILTINS = ['cd'] as const;\n",
      'src/inputs/read.ts':
        "import type { Plan } from '../types.js';\nimport { BUILTINS } from '../model/bash-builtins.js';\n",
      'src/engine/run.ts':
        "import type { Plan } from '../types.js';\nimport './wire.js';\nimport '../capture/keep.js';\n",
      'src/engine/wire.ts': 'export const wire = 1;\n',
      'src/capture/keep.ts': 'export const keep = 1;\n',
      'src/cli/main.ts':
        "import '../inputs/read.js';\nimport '../engine/run.js';\nimport('../reporters/table.js');\n",
      'src/reporters/table.ts': "import type { Plan } from '../types.js';\n",
    });
    for (const kind of ['fileCycles', 'partCycles', 'backArrows'] as const)
      expect(judged[kind]).toEqual({ added: [], paid: [] });
  });

  it('catches a cycle closed by import() and one closed by bare imports', () => {
    expect(
      judge({
        'src/engine/run.ts': "import { wire } from './wire.js';\nexport const run = wire;\n",
        'src/engine/wire.ts': "export const wire = 1;\nexport const later = () => import('./run.js');\n",
      }).fileCycles.added,
    ).toEqual(['src/engine/run.ts <-> src/engine/wire.ts']);
    expect(
      judge({
        'src/capture/a.ts': "import './b.js';\n",
        'src/capture/b.ts': "import './c.js';\n",
        'src/capture/c.ts': "import './a.js';\n",
      }).fileCycles.added,
    ).toEqual(['src/capture/a.ts <-> src/capture/b.ts <-> src/capture/c.ts']);
  });

  it('catches a cycle between parts closed by import()', () => {
    expect(
      judge({
        'src/hang/look.ts': "export const look = () => import('../teardown/kill.js');\n",
        'src/teardown/kill.ts': "import '../hang/look.js';\n",
      }).partCycles.added,
    ).toEqual(['src/hang/ <-> src/teardown/']);
  });

  it('names every rule by the promise it keeps', () => {
    for (const rule of DIRECTION_RULES) expect(rule.why).toMatch(/\w/);
    expect(backArrows(new Map([['src/engine/a.ts', ['src/engine/b.ts']]]), DIRECTION_RULES)).toEqual([]);
  });
});

describe('the exports nothing imports', () => {
  const tree = (files: Record<string, string>) =>
    Object.entries(files).map(([file, text]) => ({ file, text }));

  it('are found through named, default, namespace and lazy imports, and through re-exports', () => {
    const readers = tree({
      'src/parts.ts':
        'export const direct = 1;\nexport const viaBarrel = 2;\nexport const viaStar = 3;\nexport function dead() {}\nexport type Shape = {};\nexport default 4;',
      'src/barrel.ts':
        "export { viaBarrel as renamed } from './parts.js';\nexport * from './more.js';\nexport type { Shape } from './parts.js';",
      'src/more.ts': 'export const fromStar = 5;\nexport const notTaken = 6;',
      'src/whole.ts': 'export const a = 1;\nexport const b = 2;',
      'src/lazy.ts': 'export const taken = 1;\nexport const left = 2;',
      'src/use.ts':
        "import first, { direct } from './parts.js';\nimport { renamed, fromStar } from './barrel.js';\nimport * as all from './whole.js';\nexport async function go() {\n  const { taken } = await import('./lazy.js');\n  return [first, direct, renamed, fromStar, all, taken];\n}",
      'src/index.ts': "export { go } from './use.js';",
      'test/use.test.ts': "import { viaStar } from '../src/parts.js';",
    });
    expect(unusedExports(readers, ['src/index.ts'])).toEqual([
      'src/barrel.ts: Shape',
      'src/lazy.ts: left',
      'src/more.ts: notTaken',
      'src/parts.ts: Shape',
      'src/parts.ts: dead',
    ]);
  });

  it('counts a use by a test, and every export of an entry point or of a module imported whole', () => {
    const readers = tree({
      'src/a.ts': 'export const tested = 1;\nexport interface Unused {}',
      'src/entry.ts': 'export const api = 1;',
      'src/b.ts': 'export const x = 1;',
      'src/c.ts': "export const later = () => import('./b.js');",
      'test/a.test.ts': "import { tested } from '../src/a.js';\nimport { later } from '../src/c.js';",
    });
    expect(unusedExports(readers, ['src/entry.ts'])).toEqual(['src/a.ts: Unused']);
    expect(unusedExports(readers.slice(0, 4), ['src/entry.ts'])).toEqual([
      'src/a.ts: Unused',
      'src/a.ts: tested',
      'src/c.ts: later',
    ]);
  });
});
