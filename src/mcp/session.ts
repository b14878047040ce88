import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_ENV } from '../agent/agent-defaults.js';
import { pipeCount } from '../engine/pipeline-pipes.js';
import { RunSupport } from '../engine/run-support.js';
import type { ShellState, StateFiles } from '../session/state-files.js';
import { stateFilesIn } from '../session/state-files.js';
import { CallOrder } from './call-queue.js';
import { JobTable } from './jobs.js';

// Output files of finished calls kept for reading (the newest); a job's stays while the job is listed.
const KEPT_OUTPUTS = 20;

// One MCP session: the shell state its calls share, the jobs it started, a private directory for what
// a call hands over (stdin text, the state the bash fallback leaves, whole outputs), and the watchdog
// and FIFOs kept ready between calls. The state starts as the server's environment with the agent
// defaults over it. When the client goes, every call and job is stopped (close()).
export class Session {
  state: ShellState;
  readonly dir: string;
  readonly stateFiles: StateFiles;
  readonly jobs = new JobTable();
  readonly order = new CallOrder();
  // Names earlier calls defined as functions (they do not carry over: function-advice.ts).
  readonly functions = new Set<string>();
  private support: RunSupport | null = null;
  private outputs: string[] = [];
  private stdinCount = 0;
  private outputCount = 0;
  // Aborted when the client is gone: every running call stops.
  private readonly ending = new AbortController();

  constructor(cwd: string) {
    const inherited: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) inherited[name] = value;
    this.state = { cwd, env: { ...inherited, ...AGENT_ENV }, vars: {} };
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-mcp-'));
    fs.mkdirSync(path.join(this.dir, 'output'));
    this.stateFiles = stateFilesIn(this.dir);
  }

  get signal(): AbortSignal {
    return this.ending.signal;
  }

  // The watchdog and FIFOs every call shares, started by the first call and kept until the end.
  runSupport(): RunSupport {
    this.support ??= new RunSupport();
    return this.support;
  }

  // Between calls: the FIFOs of the next call's first step (one stage, the most common) are made now,
  // by the watchdog, instead of while the next call waits.
  readyForNext(): void {
    if (!this.ending.signal.aborted) this.support?.prepare(pipeCount(1));
  }

  // A file for one call's `stdin` text (calls may run side by side: each has its own).
  writeStdin(text: string): string {
    this.stdinCount += 1;
    const file = path.join(this.dir, `stdin-${this.stdinCount}`);
    fs.writeFileSync(file, text, { mode: 0o600 });
    return file;
  }

  // Where the next whole output goes; the oldest beyond KEPT_OUTPUTS are removed, unless a job listed
  // in the session still writes or shows it.
  outputPath(): string {
    this.outputCount += 1;
    const file = path.join(this.dir, 'output', `${this.outputCount}.txt`);
    this.outputs.push(file);
    const held = new Set(this.jobs.outputFiles());
    while (this.outputs.length > KEPT_OUTPUTS) {
      const old = this.outputs.findIndex((name) => !held.has(name));
      if (old === -1) break;
      fs.rmSync(this.outputs.splice(old, 1)[0]!, { force: true });
    }
    return file;
  }

  // The client is gone or closed the session: stop every call and job (SIGTERM, SIGKILL half a second
  // later for what is left), wait until they are gone, and remove the session's files.
  async close(): Promise<void> {
    this.ending.abort();
    await Promise.all([this.jobs.killAll(), this.order.settled()]);
    this.support?.close();
    this.support = null;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
