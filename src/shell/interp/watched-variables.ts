import { Variables } from '../expand/vars.js';
import type { Bytes } from '../syntax/source.js';

// The shell's variables, which tell the shell when a name is assigned or unset (for those whose
// change does something in bash, as BASH_XTRACEFD's).
export class WatchedVariables extends Variables {
  changed: (name: string) => void = () => {};

  override assign(name: string, value: Bytes, options?: Parameters<Variables['assign']>[2]): void {
    super.assign(name, value, options);
    this.changed(name);
  }

  override unset(name: string, index?: number | Bytes, keepLocal = false, own = false): boolean {
    const done = super.unset(name, index, keepLocal, own);
    if (done && index === undefined) this.changed(name);
    return done;
  }

  // A function's locals and a command's own assignments (`BASH_XTRACEFD=3 cmd`) end: the outer
  // values are back, as if assigned again.
  override popScope(): string[] {
    const names = super.popScope();
    for (const name of names) this.changed(name);
    return names;
  }

  override clone(): WatchedVariables {
    const copy = super.clone() as WatchedVariables;
    copy.changed = this.changed;
    return copy;
  }
}
