// Several stages' stderr go to one destination (safe-run's stderr) as whole lines. SharedLine knows
// who wrote last and whether that writer left its line open (a prompt shown before its newline), so
// that the next writer first ends that line, and, where stages are named by a header line rather
// than a prefix on every line, says whose lines follow when the writer changes.
export interface LineWriter {
  // The writer's shown line was ended by someone else's output.
  broken(): void;
}

export class SharedLine {
  private last: LineWriter | null = null;
  private openBy: LineWriter | null = null;

  // What must go out before `who` writes: a newline ending another writer's open line, and
  // `header` when the writer changed.
  before(who: LineWriter, header: string | null): string {
    let out = '';
    if (this.openBy !== null && this.openBy !== who) {
      out += '\n';
      this.openBy.broken();
      this.openBy = null;
    }
    if (header !== null && this.last !== who) out += header;
    this.last = who;
    return out;
  }

  // `who` wrote; its line is left open when what it wrote did not end with a newline.
  after(who: LineWriter, endsLine: boolean): void {
    this.openBy = endsLine ? (this.openBy === who ? null : this.openBy) : who;
  }
}
