import type { Bytes } from '../syntax/source.js';
import { AssocTable } from './assoc-table.js';
import { IndexedItems } from './indexed-items.js';
import { assignElement, converted } from './value-convert.js';
import { type Attrs, cloneVariable, NO_ATTRS, namesVariable, type Variable } from './variable.js';

// Why an assignment did not happen, as bash says it (the caller adds "bash: line N: ").
export class VarError extends Error {}

// Scopes of shell variables, innermost last: the global one, then one per function call that has
// `local`s (bash's dynamic scoping: a function sees its callers' locals).
export class Variables {
  private scopes: Map<string, Variable>[] = [new Map()];
  // Which scopes hold a command's own assignments (`x=1 cmd`) rather than a function's locals.
  private temporary: boolean[] = [false];
  // Evaluates arithmetic for -i variables; set by whoever owns the evaluator.
  integerValue: (text: Bytes) => Bytes = (text) => text;
  // An array's subscript as written, evaluated (arithmetic, or an associative array's key); set by
  // whoever owns the evaluator.
  elementIndex: (name: string, text: Bytes) => number | Bytes = (_, text) => text;
  // Says a warning bash prints and goes on after (a circle of namerefs); set by the shell.
  warn: (message: string) => void = () => {};

  get depth(): number {
    return this.scopes.length;
  }

  pushScope(temporary = false): void {
    this.scopes.push(new Map());
    this.temporary.push(temporary);
  }

  popScope(): string[] {
    if (this.scopes.length === 1) return [];
    this.temporary.pop();
    return [...this.scopes.pop()!.keys()]; // names whose outer variables are back
  }

  // The visible variable of that name (namerefs followed), or undefined (also for a circle of them).
  get(name: string): Variable | undefined {
    const resolved = this.follow(name);
    if (resolved === null) this.warn(`warning: ${name}: circular name reference`);
    return resolved === null ? undefined : this.lookup(resolved);
  }

  // Without following a nameref.
  getRaw(name: string): Variable | undefined {
    return this.lookup(name);
  }

  private lookup(name: string): Variable | undefined {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const found = this.scopes[k]!.get(name);
      if (found) return found;
    }
    return undefined;
  }

  // Follows namerefs (at most 8 deep, as bash warns beyond). A circle of them: an error.
  resolve(name: string): string {
    const resolved = this.follow(name);
    if (resolved === null) throw new VarError(`warning: ${name}: circular name reference`);
    return resolved;
  }

  // The name namerefs lead to from `name`, or null when they lead back to one already met.
  private follow(name: string): string | null {
    let current = name;
    const met = new Set<string>();
    for (let hops = 0; hops < 8; hops++) {
      const variable = this.lookup(current);
      if (!variable?.attrs.nameref || variable.value?.kind !== 'scalar' || variable.value.value === '')
        return current;
      met.add(current);
      current = variable.value.value;
      if (met.has(current)) return null;
    }
    return current;
  }

  // A nameref whose value names an array's element (declare -n r='a[1]'): the array's name and the
  // subscript as written; null for any other name.
  elementRef(name: string): { name: string; subscript: Bytes } | null {
    if (!this.lookup(name)?.attrs.nameref) return null;
    const resolved = this.follow(name);
    const match = resolved === null ? null : /^([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]$/s.exec(resolved);
    return match ? { name: match[1]!, subscript: match[2]! } : null;
  }

  // A new variable in the innermost scope (local, or declare inside a function), shadowing others.
  declareLocal(name: string, attrs: Partial<Attrs> = {}): Variable {
    const scope = this.scopes.at(-1)!;
    const existing = scope.get(name);
    if (existing) {
      Object.assign(existing.attrs, attrs);
      return existing;
    }
    const variable: Variable = { value: null, attrs: { ...NO_ATTRS, ...attrs } };
    scope.set(name, variable);
    return variable;
  }

  inLocalScope(name: string): boolean {
    return this.scopes.length > 1 && this.scopes.at(-1)!.has(name);
  }

  // The variable an assignment to `name` changes: the visible one, else a new global.
  target(name: string): Variable {
    const resolved = this.elementRef(name)?.name ?? this.resolve(name);
    const found = this.lookup(resolved);
    if (found) return found;
    const variable: Variable = { value: null, attrs: { ...NO_ATTRS } };
    this.scopes[0]!.set(resolved, variable);
    return variable;
  }

  // A global the shell sets itself: `variable` as it is (lazyScalar's, found when first read).
  define(name: string, variable: Variable): void {
    this.scopes[0]!.set(name, variable);
  }

  // NAME=value or NAME+=value; for an array (or one declared so with no value yet), element 0 (or
  // `index`).
  assign(name: string, value: Bytes, options: { append?: boolean; index?: number | Bytes } = {}): void {
    const { append = false, index } = options;
    const ref = index === undefined ? this.elementRef(name) : null;
    if (ref) {
      this.assign(ref.name, value, { append, index: this.elementIndex(ref.name, ref.subscript) });
      return;
    }
    const variable = this.target(name);
    if (variable.attrs.readonly) throw new VarError(`${name}: readonly variable`);
    // (A nameref with no value yet: the value must name a variable.)
    if (variable.attrs.nameref && index === undefined && !append && !namesVariable(value, true))
      throw new VarError(`\`${value}': not a valid identifier`);
    const current = variable.value;
    if (index !== undefined || (current && current.kind !== 'scalar') || (!current && variable.attrs.array)) {
      const at = index ?? (current?.kind === 'assoc' || variable.attrs.array === 'assoc' ? '0' : 0);
      assignElement(this.integerValue, variable, at, value, append);
      return;
    }
    const old = current?.kind === 'scalar' ? current.value : '';
    variable.value = {
      kind: 'scalar',
      value: converted(this.integerValue, variable, value, append ? old : null),
    };
  }

  // NAME=(...) (or +=): the elements, with their [key]= when given (a negative one counts back from
  // the end so far). Returns the elements left out: a negative subscript before the first.
  assignArray(
    name: string,
    elements: { key: Bytes | null; value: Bytes }[],
    append: boolean,
    kind: 'indexed' | 'assoc',
  ): { key: Bytes | null; value: Bytes }[] {
    const variable = this.target(name);
    if (variable.attrs.readonly) throw new VarError(`${name}: readonly variable`);
    const assoc = variable.attrs.array === 'assoc' || kind === 'assoc';
    const keep = append && variable.value;
    if (assoc) {
      const table = keep && variable.value!.kind === 'assoc' ? variable.value!.items : new AssocTable();
      variable.value = { kind: 'assoc', items: table };
      for (const element of elements) {
        if (element.key === null) continue;
        table.set(element.key, converted(this.integerValue, variable, element.value, null));
      }
      return [];
    }
    let items = new IndexedItems();
    if (keep && variable.value!.kind === 'indexed') items = variable.value!.items;
    else if (keep && variable.value!.kind === 'scalar') items.set(0, variable.value!.value);
    variable.value = { kind: 'indexed', items };
    let next = items.maxIndex() + 1;
    const left: { key: Bytes | null; value: Bytes }[] = [];
    for (const element of elements) {
      let at = element.key === null ? next : Number(element.key);
      if (at < 0) at += items.maxIndex() + 1;
      if (at < 0) {
        left.push(element);
        continue;
      }
      items.set(at, converted(this.integerValue, variable, element.value, null));
      next = at + 1;
    }
    return left;
  }

  // unset NAME (or NAME[index]): false when it is read-only. A local of the running function stays
  // declared there, unset, hiding the others; a caller's local is removed, showing the next one out
  // (bash's dynamic unset), unless `keepLocal` (shopt localvar_unset) treats it as the innermost's.
  // `own` (unset -n): a nameref itself, not the variable it names.
  unset(name: string, index?: number | Bytes, keepLocal = false, own = false): boolean {
    const ref = own || index !== undefined ? null : this.elementRef(name);
    if (ref) return this.unset(ref.name, this.elementIndex(ref.name, ref.subscript), keepLocal);
    const resolved = own ? name : this.resolve(name);
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const scope = this.scopes[k]!;
      const variable = scope.get(resolved);
      if (!variable) continue;
      if (variable.attrs.readonly) return false;
      if (index !== undefined && variable.value && variable.value.kind !== 'scalar') {
        if (variable.value.kind === 'assoc') variable.value.items.delete(String(index));
        else variable.value.items.delete(Number(index));
      } else if (index !== undefined && index !== 0 && index !== '0') {
        // an element of a scalar other than 0: nothing to do
      } else if (k > 0 && (keepLocal || k >= this.temporary.lastIndexOf(false))) variable.value = null;
      else scope.delete(resolved);
      return true;
    }
    return true;
  }

  // Every visible variable name (or the innermost function's locals), sorted as bash lists them.
  names(localOnly = false): string[] {
    const names = new Set<string>();
    const scopes = localOnly ? this.scopes.slice(this.temporary.lastIndexOf(false)).slice(0, 1) : this.scopes;
    for (const scope of scopes) for (const name of scope.keys()) names.add(name);
    return [...names].sort();
  }

  // The environment of a command: for each name the innermost exported scalar with a value, as in bash
  // (a local without a value, or not exported, leaves the variable it hides there; arrays are not).
  environment(): Record<string, Bytes> {
    const env: Record<string, Bytes> = {};
    const inner = [...this.scopes].reverse();
    for (const name of this.names()) {
      const found = inner.find((scope) => scope.get(name)?.attrs.exported && scope.get(name)!.value);
      const value = found?.get(name)?.value;
      if (value?.kind === 'scalar') env[name] = value.value;
    }
    return env;
  }

  // A copy for a subshell: nothing it changes reaches this one.
  clone(): Variables {
    const copy = new (this.constructor as new () => Variables)();
    copy.integerValue = this.integerValue;
    copy.elementIndex = this.elementIndex;
    copy.warn = this.warn;
    copy.temporary = [...this.temporary];
    copy.scopes = this.scopes.map((scope) => {
      const out = new Map<string, Variable>();
      for (const [name, variable] of scope) out.set(name, cloneVariable(variable));
      return out;
    });
    return copy;
  }
}
