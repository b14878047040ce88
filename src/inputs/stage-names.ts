import path from 'node:path';

// Default stage names: the program's basename, made unique in order of appearance (cat, cat-2, cat-3).
// Names the user gave are kept and reserved first.
export function assignStageNames(
  programs: readonly string[],
  given: readonly (string | undefined)[] = [],
): string[] {
  const taken = new Set(given.filter((name): name is string => name !== undefined));
  return programs.map((program, i) => {
    const explicit = given[i];
    if (explicit !== undefined) return explicit;
    const base = path.basename(program) || program || 'stage';
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}-${n}`;
    taken.add(name);
    return name;
  });
}
