import ts from 'typescript';
import { parse, resolveSpecifier, type SourceFile } from './import-graph.js';

// Exports of src/ that no file imports: dead code, or a name that need not be exported. Read from the
// syntax alone, like the import graph: what each file exports, re-exports and imports by name.

// '*' stands for every name (import * as ns, import(), export * from).
const ALL = '*';

interface ReExport {
  target: string;
  // The name in the target, or '*'.
  name: string;
  // The name this file gives it, or '*' (export * from).
  as: string;
}

interface FileNames {
  exported: string[];
  reExports: ReExport[];
  // File -> names this file imports from it.
  uses: { target: string; name: string }[];
}

const hasExport = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : bindingNames(element.name),
  );
}

function declaredExports(statement: ts.Statement): string[] {
  if (!hasExport(statement)) return [];
  const isDefault = (ts.getModifiers(statement as ts.HasModifiers) ?? []).some(
    (m) => m.kind === ts.SyntaxKind.DefaultKeyword,
  );
  if (isDefault) return ['default'];
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.flatMap((declaration) => bindingNames(declaration.name));
  const named = statement as ts.Statement & { name?: ts.Node };
  return named.name && ts.isIdentifier(named.name) ? [named.name.text] : [];
}

// The names a lazy import's result is taken apart into, or every name.
function takenFrom(call: ts.Node): string[] {
  const awaited = ts.isAwaitExpression(call.parent) ? call.parent : null;
  const holder = awaited?.parent;
  if (!holder || !ts.isVariableDeclaration(holder) || !ts.isObjectBindingPattern(holder.name)) return [ALL];
  return holder.name.elements.map((element) =>
    element.propertyName && ts.isIdentifier(element.propertyName)
      ? element.propertyName.text
      : ts.isIdentifier(element.name)
        ? element.name.text
        : ALL,
  );
}

function namesOf(source: SourceFile, known: Set<string>): FileNames {
  const names: FileNames = { exported: [], reExports: [], uses: [] };
  const target = (specifier: ts.Expression) =>
    ts.isStringLiteralLike(specifier) ? resolveSpecifier(source.file, specifier.text, known) : null;
  const tree = parse(source);
  for (const statement of tree.statements) {
    names.exported.push(...declaredExports(statement));
    if (ts.isExportAssignment(statement)) names.exported.push('default');
    if (ts.isImportDeclaration(statement)) {
      const from = target(statement.moduleSpecifier);
      const clause = statement.importClause;
      if (from === null || !clause) continue;
      if (clause.name) names.uses.push({ target: from, name: 'default' });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.uses.push({ target: from, name: ALL });
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          names.uses.push({ target: from, name: (element.propertyName ?? element.name).text });
    }
    if (ts.isExportDeclaration(statement)) {
      const from = statement.moduleSpecifier ? target(statement.moduleSpecifier) : null;
      const clause = statement.exportClause;
      if (!statement.moduleSpecifier) {
        if (clause && ts.isNamedExports(clause))
          names.exported.push(...clause.elements.map((e) => e.name.text));
      } else if (from !== null) {
        if (!clause) names.reExports.push({ target: from, name: ALL, as: ALL });
        else if (ts.isNamespaceExport(clause))
          names.reExports.push({ target: from, name: ALL, as: clause.name.text });
        else
          for (const element of clause.elements)
            names.reExports.push({
              target: from,
              name: (element.propertyName ?? element.name).text,
              as: element.name.text,
            });
      }
    }
  }
  // `const { a } = await import('./x.js')`: the names taken; any other import() or import('./x.js').T:
  // every name.
  const visit = (node: ts.Node) => {
    const call = ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;
    const argument = call
      ? (node as ts.CallExpression).arguments[0]
      : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
        ? node.argument.literal
        : undefined;
    const from = argument ? target(argument) : null;
    if (from !== null)
      for (const name of call ? takenFrom(node) : [ALL]) names.uses.push({ target: from, name });
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return names;
}

// 'src/x.ts: name' for every name a file of `dir` exports (or re-exports by name) that no file of
// `readers` imports, directly or through re-exports. `entries` are files whose every export is used (the library's index.ts,
// the bundles' entry points).
export function unusedExports(readers: SourceFile[], entries: string[], dir = 'src'): string[] {
  const known = new Set(readers.map((source) => source.file));
  const files = new Map(readers.map((source) => [source.file, namesOf(source, known)]));
  const used = new Map<string, Set<string>>();
  const queue: { target: string; name: string }[] = [
    ...entries.map((entry) => ({ target: entry, name: ALL })),
    ...[...files.values()].flatMap((names) => names.uses),
  ];
  for (let use = queue.pop(); use !== undefined; use = queue.pop()) {
    const seen = used.get(use.target) ?? new Set<string>();
    if (seen.has(use.name)) continue;
    seen.add(use.name);
    used.set(use.target, seen);
    const names = files.get(use.target);
    for (const re of names?.reExports ?? []) {
      const passes =
        use.name === ALL || re.as === use.name || (re.as === ALL && !names!.exported.includes(use.name));
      if (passes)
        queue.push({ target: re.target, name: re.name === ALL ? (re.as === ALL ? use.name : ALL) : re.name });
    }
  }
  const unused: string[] = [];
  for (const [file, names] of files) {
    if (!file.startsWith(`${dir}/`)) continue;
    const seen = used.get(file) ?? new Set<string>();
    if (seen.has(ALL)) continue;
    const named = [...names.exported, ...names.reExports.map((re) => re.as).filter((as) => as !== ALL)];
    for (const name of named) if (!seen.has(name)) unused.push(`${file}: ${name}`);
  }
  return unused.sort();
}
