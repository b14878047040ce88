// bash's deepest expression (the outer one is 0): a variable's value is not evaluated below it.
export const MAX_DEPTH = 1023;

// One level of arithmetic evaluation: its expression, and where the name whose value is evaluated
// below it starts.
export interface Level {
  text: string;
  at: number;
}

// The level bash stops at, from the levels reached: they repeat (the same values are evaluated
// again), so it is the one as far into the repetition as bash's limit.
function levelAtLimit(trail: readonly Level[]): Level {
  const last = trail.length - 2;
  const same = (a: Level, b: Level) => a.text === b.text && a.at === b.at;
  for (let p = 1; p <= last / 3; p++) {
    let repeats = true;
    for (let j = last; repeats && j > last - 2 * p; j--) repeats = same(trail[j]!, trail[j - p]!);
    if (repeats) return trail[last - ((((last - MAX_DEPTH) % p) + p) % p)]!;
  }
  return trail[Math.max(last, 0)]!;
}

// bash's message when variables name each other without end.
export function limitMessage(trail: readonly Level[]): string {
  const { text, at } = levelAtLimit(trail);
  return `${text.trimStart()}: expression recursion level exceeded (error token is "${text.slice(at)}")`;
}
