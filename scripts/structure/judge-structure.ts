import ts from 'typescript';
import { backArrows, DIRECTION_RULES, type DirectionRule } from './direction.js';
import { unusedExports } from './exports.js';
import { findCycles, importGraph, parse, partGraph, type SourceFile } from './import-graph.js';

// Files and functions longer than the team's limits, and the verdict of the structure check against
// its list of known debt.

export const MAX_FILE_LINES = 250;
export const MAX_FUNCTION_LINES = 60;

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

export interface Debt {
  fileCycles: string[][];
  partCycles: string[][];
  // Imports against the direction rules, as backArrows() words them.
  backArrows: string[];
  longFiles: string[];
  longFunctions: string[];
  // Names exported that no file imports, as unusedExports() words them.
  unusedExports: string[];
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

export function judgeList(found: string[], known: string[]): Judgement {
  return {
    added: found.filter((entry) => !known.includes(entry)),
    paid: known.filter((entry) => !found.includes(entry)),
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

export interface StructureOptions {
  // The folder the sources are, relative to the root: 'src'.
  dir?: string;
  rules?: readonly DirectionRule[];
  // Every file that may import the sources' exports (tests, scripts), the sources included.
  readers?: SourceFile[];
  // Files whose every export is used from outside: the library's index, the bundles' entry points.
  entries?: string[];
}

// Everything the structure check says about a tree of sources, against its known debt.
export function judgeStructure(
  sources: SourceFile[],
  debt: Debt,
  options: StructureOptions = {},
): Record<keyof Debt, Judgement> {
  const { dir = 'src', rules = DIRECTION_RULES, readers = sources, entries = [] } = options;
  const graph = importGraph(sources);
  return {
    fileCycles: judgeCycles(findCycles(graph), debt.fileCycles),
    partCycles: judgeCycles(findCycles(partGraph(graph, dir)), debt.partCycles),
    backArrows: judgeList(backArrows(graph, rules, dir), debt.backArrows),
    longFiles: judgeNames(longFiles(sources), debt.longFiles),
    longFunctions: judgeNames(longFunctions(sources), debt.longFunctions),
    unusedExports: judgeList(unusedExports(readers, entries, dir), debt.unusedExports),
  };
}
