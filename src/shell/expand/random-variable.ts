import { randomInt } from 'node:crypto';
import type { Bytes } from '../syntax/source.js';
import { type Attrs, NO_ATTRS, type Value, type Variable } from './variable.js';

// $RANDOM as bash 5.2 makes it (lib/sh/random.c): Park and Miller's "minimal standard" generator on
// a 32-bit seed, each value folded to 15 bits; RANDOM=N seeds it with N (so a text that seeds it gets
// bash's own sequence), a value equal to the one before is skipped, and a subshell that has not
// seeded it on its own starts from a new seed. Unset, or shadowed by a local, it is an ordinary
// variable (the shell reads this object only while it is the visible RANDOM).
export class RandomVariable implements Variable {
  readonly attrs: Attrs = { ...NO_ATTRS, integer: true };
  readonly remade = true;
  // (Some value from the start, as bash's has: `set` lists it, [[ -v RANDOM ]] holds.)
  private stored: Value | null = { kind: 'scalar', value: String(randomInt(0x8000)) };
  private seed: number;
  private last = 0;

  constructor(
    seed = randomInt(2 ** 32),
    // Seeded in this shell (not only in the one it was copied from).
    private seededHere = true,
  ) {
    this.seed = seed;
  }

  get value(): Value | null {
    return this.stored;
  }

  // An assignment seeds it (with the value as a number; other text leaves the seed as it was).
  set value(value: Value | null) {
    this.stored = value;
    if (value?.kind !== 'scalar' || !/^\s*[-+]?\d+\s*$/.test(value.value)) return;
    this.seed = Number(BigInt.asUintN(32, BigInt(value.value.trim())));
    this.last = 0;
    this.seededHere = true;
  }

  next(): Bytes {
    if (!this.seededHere) {
      this.seed = randomInt(2 ** 32);
      this.seededHere = true;
    }
    let value: number;
    do {
      this.seed = step(this.seed);
      value = ((this.seed >>> 16) ^ (this.seed & 0xffff)) & 0x7fff;
    } while (value === this.last);
    this.last = value;
    return String(value);
  }

  cloneForSubshell(): Variable {
    const copy = new RandomVariable(this.seed, false);
    copy.stored = this.stored;
    copy.last = this.last;
    Object.assign(copy.attrs, this.attrs);
    return copy;
  }
}

// x' = 16807 x mod (2^31 - 1), by Schrage's split as bash computes it (a seed of 0 starts at
// 123459876; one of 2^31 or more is taken as it is).
function step(seed: number): number {
  const x = seed === 0 ? 123459876 : seed;
  const high = Math.floor(x / 127773);
  const low = x % 127773;
  const t = 16807 * low - 2836 * high;
  return t < 0 ? t + 0x7fffffff : t;
}

// $SRANDOM: 32 random bits each time it is read; an assignment changes nothing it gives. Unset, or
// shadowed by a local, it is an ordinary variable.
export class SecureRandomVariable implements Variable {
  readonly attrs: Attrs = { ...NO_ATTRS, integer: true };
  readonly remade = true;
  value: Value | null = { kind: 'scalar', value: '0' };

  next(): Bytes {
    return String(randomInt(2 ** 32));
  }

  cloneForSubshell(): Variable {
    const copy = new SecureRandomVariable();
    copy.value = this.value;
    Object.assign(copy.attrs, this.attrs);
    return copy;
  }
}

// What the shell's own $RANDOM or $SRANDOM gives when read now; undefined when the visible variable
// of that name is another (unset, or a local).
export function generatedValue(variable: Variable | undefined): Bytes | undefined {
  return variable instanceof RandomVariable || variable instanceof SecureRandomVariable
    ? variable.next()
    : undefined;
}
