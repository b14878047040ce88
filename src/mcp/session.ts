import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_ENV } from '../agent/agent-defaults.js';
import type { ShellState, StateFiles } from './shell-state.js';
import { stateFilesIn } from './shell-state.js';

// One MCP session: the shell state its calls share, and a private directory for what a call hands
// over (stdin text, the state the bash fallback leaves). Nothing else is carried between calls: the
// state starts as the server's environment with the agent defaults over it.
export class Session {
  state: ShellState;
  readonly dir: string;
  readonly stateFiles: StateFiles;
  private readonly running = new Set<Promise<unknown>>();
  // Calls run one after another, as in a terminal: each starts from the state the previous one left.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(cwd: string) {
    const inherited: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) inherited[name] = value;
    this.state = { cwd, env: { ...inherited, ...AGENT_ENV }, vars: {} };
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-mcp-'));
    this.stateFiles = stateFilesIn(this.dir);
  }

  // The file a call's `stdin` text is read from.
  writeStdin(text: string): string {
    const file = path.join(this.dir, 'stdin');
    fs.writeFileSync(file, text, { mode: 0o600 });
    return file;
  }

  // Runs `work` after every call before it has finished. Calls still running or queued when the
  // client closes stdin are answered before the server stops.
  serialize<T>(work: () => Promise<T>): Promise<T> {
    const call = this.queue.then(work, work);
    this.queue = call.catch(() => {});
    this.running.add(call);
    void call.finally(() => this.running.delete(call)).catch(() => {});
    return call;
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
