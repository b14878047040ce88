import type { Assign } from '../../syntax/nodes.js';
import type { Bytes } from '../../syntax/source.js';
import type { RunnerApi } from '../api.js';
import { writeTo } from '../output.js';

// What a builtin runs with: the shell (through the runner), its name and arguments, and its output,
// which is counted for the report as it is written.
export class BuiltinContext {
  written = { out: '', err: '' };
  private writeError: string | null = null;

  constructor(
    readonly r: RunnerApi,
    readonly name: string,
    // The arguments after the name.
    readonly args: Bytes[],
    // For a declaration builtin: per argument, the assignment it was written as, or null.
    readonly decl: (Assign | null)[] | null,
  ) {}

  get sh() {
    return this.r.sh;
  }

  async out(text: Bytes): Promise<void> {
    if (this.writeError) return;
    const result = await writeTo(this.r.rt, this.sh.fds.get(1), text);
    if (result === 'ok') this.written.out += text;
    else this.writeError = result === 'closed' ? 'Bad file descriptor' : 'Input/output error';
  }

  async err(text: Bytes): Promise<void> {
    this.written.err += text;
    await writeTo(this.r.rt, this.sh.fds.get(2), text);
  }

  // "bash: line N: NAME: message" on stderr; returns `status`.
  async fail(message: string, status = 1): Promise<number> {
    await this.err(`${this.sh.arg0}: line ${this.sh.lineno}: ${this.name}: ${message}\n`);
    return status;
  }

  // bash's "write error" when stdout could not be written (a closed descriptor).
  async finish(status: number): Promise<number> {
    if (!this.writeError) return status;
    await this.err(
      `${this.sh.arg0}: line ${this.sh.lineno}: ${this.name}: write error: ${this.writeError}\n`,
    );
    return 1;
  }
}

export type Builtin = (ctx: BuiltinContext) => Promise<number>;
