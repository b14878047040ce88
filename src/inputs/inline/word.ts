// A character of a word after quote removal. Quote characters and escaping backslashes are kept as
// "mark" units because bash decides assignments, reserved words and braces on the text as written.
export type UnitKind = 'plain' | 'quoted' | 'mark';
interface Unit {
  ch: string;
  kind: UnitKind;
}

export interface Word {
  col: number;
  raw: string;
  units: Unit[];
  // Index in units of the "=" of a NAME=value (or NAME+=value) word, -1 when the word is not one.
  assignAt: number;
  append: boolean;
}

// The text bash would pass on: every unit except the quote marks.
export function textOf(units: Unit[]): string {
  return units
    .filter((unit) => unit.kind !== 'mark')
    .map((unit) => unit.ch)
    .join('');
}
