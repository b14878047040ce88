import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// Which file of src/ imports which, and the cycles among them: the one reader of imports, for the
// structure test's cycle check and its direction rules (direction.ts). Read with the TypeScript
// parser (no type checking), so it sees the imports the compiler sees.

// File (relative to the root) -> the files it imports, type-only and lazy imports included: each is
// a dependency of the design even when it vanishes from the bundle.
export type ImportGraph = Map<string, string[]>;

export interface SourceFile {
  // Relative to the root, with forward slashes.
  file: string;
  text: string;
}

export function readSources(root: string, dir: string): SourceFile[] {
  const found: SourceFile[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
        found.push({ file: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(root, dir));
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

// One tree per source read: the import graph, the function lengths and the exports all walk it.
const trees = new WeakMap<SourceFile, ts.SourceFile>();

export function parse(source: SourceFile): ts.SourceFile {
  let tree = trees.get(source);
  if (tree === undefined) {
    tree = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    trees.set(source, tree);
  }
  return tree;
}

// Every module a file names: `import ... from`, a bare `import './x.js'`, `export ... from`, and
// `import('./x.js')` (its text written out, in quotes or backquotes).
function specifiersOf(tree: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return out;
}

// './x.js' written in src/a/b.ts -> 'src/a/x.ts' when that file is among the sources.
export function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(dirname(from), specifier).split('\\').join('/');
  const stem = base.replace(/\.(m?js|ts)$/, '');
  for (const candidate of [`${stem}.ts`, `${base}/index.ts`]) if (known.has(candidate)) return candidate;
  return null;
}

export function importGraph(sources: SourceFile[]): ImportGraph {
  const known = new Set(sources.map((source) => source.file));
  const graph: ImportGraph = new Map();
  for (const source of sources) {
    const targets = specifiersOf(parse(source))
      .map((specifier) => resolveSpecifier(source.file, specifier, known))
      .filter((target): target is string => target !== null);
    graph.set(source.file, [...new Set(targets)].sort());
  }
  return graph;
}

// The import cycles, as strongly connected components (Tarjan): every set of files that can each
// reach the others, with more than one file or a file importing itself. Each is sorted.
export function findCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const connect = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

// The same graph between the top-level parts of src/: a folder (src/engine) or a file directly in src/
// (src/types.ts). An arrow between parts that runs both ways is a back-arrow in the data flow even
// when no single file closes a cycle.
export function partGraph(graph: ImportGraph, dir = 'src'): ImportGraph {
  const partOf = (file: string) => {
    const rest = file.slice(dir.length + 1).split('/');
    return rest.length > 1 ? `${dir}/${rest[0]}/` : file;
  };
  const parts: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    const from = partOf(file);
    const known = new Set(parts.get(from) ?? []);
    for (const target of targets) if (partOf(target) !== from) known.add(partOf(target));
    parts.set(from, [...known].sort());
  }
  return parts;
}

export function projectRoot(): string {
  const here = dirname(new URL(import.meta.url).pathname);
  const root = resolve(here, '../..');
  if (!existsSync(join(root, 'package.json'))) throw new Error(`no package.json in ${root}`);
  return root;
}
