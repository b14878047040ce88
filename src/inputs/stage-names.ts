import path from 'node:path';

// Default stage names: the program's basename, made unique in order of appearance (cat, cat-2, cat-3).
// Names the user gave are kept and reserved first.
// Linear: each base remembers the last suffix it used. Names only ever become taken, so a suffix
// found taken once stays taken and the search for the next free one resumes where it stopped.
export function assignStageNames(
  programs: readonly string[],
  given: readonly (string | undefined)[] = [],
): string[] {
  const taken = new Set(given.filter((name): name is string => name !== undefined));
  const nextSuffix = new Map<string, number>();
  return programs.map((program, i) => {
    const explicit = given[i];
    if (explicit !== undefined) return explicit;
    const base = path.basename(program) || program || 'stage';
    let name = base;
    if (taken.has(name)) {
      let n = nextSuffix.get(base) ?? 2;
      while (taken.has(`${base}-${n}`)) n += 1;
      name = `${base}-${n}`;
      nextSuffix.set(base, n + 1);
    }
    taken.add(name);
    return name;
  });
}
