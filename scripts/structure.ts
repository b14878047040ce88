import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// The shape of src/ as data, for the structure test: which file imports which, the cycles among them,
// and files and functions longer than the team's limits. Measured from the sources with the
// TypeScript parser (no type checking), so it sees exactly what the compiler sees.

export const MAX_FILE_LINES = 250;
export const MAX_FUNCTION_LINES = 60;

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

function parse(source: SourceFile): ts.SourceFile {
  return ts.createSourceFile(source.file, source.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function specifiersOf(tree: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return out;
}

// './x.js' written in src/a/b.ts -> 'src/a/x.ts' when that file is among the sources.
function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | null {
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

export interface Measured {
  // 'src/x.ts' for a file, 'src/x.ts:outer > inner' for a function.
  name: string;
  lines: number;
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

export function longFiles(sources: SourceFile[], max = MAX_FILE_LINES): Measured[] {
  return sources
    .map((source) => ({ name: source.file, lines: lineCount(source.text) }))
    .filter((measured) => measured.lines > max);
}

type FunctionNode = ts.SignatureDeclaration & { body?: ts.Node };

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

// A name that survives edits elsewhere in the file: the declared name, the variable or property an
// anonymous function is assigned to, or the call it is passed to.
function nameOf(node: FunctionNode, tree: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText(tree);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(tree);
  let outer: ts.Node = node;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const call = outer.parent;
  if (ts.isCallExpression(call) && call.expression === outer) {
    // Called where it is written: named by what receives its result.
    const holder = ts.isAwaitExpression(call.parent) ? call.parent.parent : call.parent;
    return ts.isVariableDeclaration(holder) ? `${holder.name.getText(tree)}()` : '<called at once>';
  }
  if (ts.isCallExpression(call)) return `${call.expression.getText(tree).replace(/\s+/g, '')}(callback)`;
  return '<anonymous>';
}

export function longFunctions(sources: SourceFile[], max = MAX_FUNCTION_LINES): Measured[] {
  const found: Measured[] = [];
  for (const source of sources) {
    const tree = parse(source);
    const visit = (node: ts.Node, path: string[]) => {
      let inner = path;
      if (isFunction(node) && node.body) {
        inner = [...path, nameOf(node, tree)];
        const start = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line;
        const end = tree.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (end - start + 1 > max)
          found.push({ name: `${source.file}:${inner.join(' > ')}`, lines: end - start + 1 });
      }
      ts.forEachChild(node, (child) => visit(child, inner));
    };
    visit(tree, []);
  }
  return found;
}

export function projectRoot(): string {
  const here = dirname(new URL(import.meta.url).pathname);
  const root = resolve(here, '..');
  if (!existsSync(join(root, 'package.json'))) throw new Error(`no package.json in ${root}`);
  return root;
}

export interface Debt {
  fileCycles: string[][];
  partCycles: string[][];
  longFiles: string[];
  longFunctions: string[];
}

export interface Judgement {
  // Violations the debt does not cover: they fail the check.
  added: string[];
  // Debt entries nothing violates any more: remove them, so the list only shrinks.
  paid: string[];
}

const describeCycle = (cycle: string[]) => cycle.join(' <-> ');

// A cycle is covered when all its files lie inside one known cycle: breaking part of a known cycle
// leaves a smaller one, which is progress; a cycle through any other file is new.
export function judgeCycles(found: string[][], known: string[][]): Judgement {
  const covers = (big: string[], small: string[]) => small.every((member) => big.includes(member));
  return {
    added: found.filter((cycle) => !known.some((debt) => covers(debt, cycle))).map(describeCycle),
    paid: known.filter((debt) => !found.some((cycle) => covers(debt, cycle))).map(describeCycle),
  };
}

export function judgeNames(found: Measured[], known: string[]): Judgement {
  const names = new Set(found.map((measured) => measured.name));
  return {
    added: found
      .filter((measured) => !known.includes(measured.name))
      .map((m) => `${m.name} (${m.lines} lines)`),
    paid: known.filter((name) => !names.has(name)),
  };
}

// Everything the structure check says about a tree of sources, against its known debt.
export function judgeStructure(
  sources: SourceFile[],
  debt: Debt,
  dir = 'src',
): Record<keyof Debt, Judgement> {
  const graph = importGraph(sources);
  return {
    fileCycles: judgeCycles(findCycles(graph), debt.fileCycles),
    partCycles: judgeCycles(findCycles(partGraph(graph, dir)), debt.partCycles),
    longFiles: judgeNames(longFiles(sources), debt.longFiles),
    longFunctions: judgeNames(longFunctions(sources), debt.longFunctions),
  };
}
