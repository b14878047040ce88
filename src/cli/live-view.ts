import { Writable } from 'node:stream';
import type { StageProgress } from '../engine/progress.js';
import { formatBytes, formatDuration } from '../format-units.js';

// At most ten redraws a second: smooth enough to read, cheap enough to ignore.
const REDRAW_MS = 100;
// Cursor to the start of the line n lines up, then erase to the end of the screen.
const up = (n: number) => `\x1b[${n}F\x1b[J`;

// One status line for a stage, cut to the terminal's width so it never wraps (a wrapped line would
// break the count of lines to erase).
function liveLine(stage: StageProgress, width: number): string {
  const state = stage.state === 'exited' ? 'done' : stage.state;
  const out = stage.stdoutBytes === null ? 'piped' : formatBytes(stage.stdoutBytes);
  const head = `${stage.index} ${stage.name}  ${state}  ${formatDuration(stage.elapsedMs)}  out ${out}  err ${formatBytes(stage.stderrBytes)}`;
  const last = (stage.lastLine ?? '').replaceAll(/[\x00-\x1f\x7f]/g, ' ');
  const line = last ? `${head}  | ${last}` : head;
  return [...line].slice(0, Math.max(10, width - 1)).join('');
}

// The live view: a block of status lines at the bottom of the terminal, on stderr. Stage stderr
// reaches the terminal through `stream`, which erases the block before each write; the next
// redraw puts it back below. stop() erases it for good, so the table replaces it.
export class LiveView {
  readonly stream: Writable;
  private drawn = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly terminal: NodeJS.WriteStream,
    private readonly progress: () => StageProgress[],
  ) {
    this.stream = new Writable({
      highWaterMark: 64 * 1024,
      write: (chunk: Buffer, _encoding, done) => {
        this.erase();
        if (this.terminal.write(chunk)) done();
        else this.terminal.once('drain', () => done());
      },
    });
  }

  start(): void {
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
    this.draw();
  }

  private draw(): void {
    const stages = this.progress();
    if (stages.length === 0) return;
    // A terminal that reports no size (a pty nobody sized) gets the usual 80 columns.
    const width = this.terminal.columns || 80;
    const lines = stages.map((stage) => liveLine(stage, width));
    this.terminal.write(`${this.drawn > 0 ? up(this.drawn) : ''}${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }

  private erase(): void {
    if (this.drawn === 0) return;
    this.terminal.write(up(this.drawn));
    this.drawn = 0;
  }

  // Stops redrawing and erases the block once what stages wrote has reached the terminal.
  async stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping = new Promise<void>((resolve) => this.stream.end(resolve)).then(() => this.erase());
    return this.stopping;
  }
}

// The live view needs a terminal on stderr, and stdout elsewhere: the product's bytes go to stdout
// untouched, and redrawing a block on the same screen would land between them.
export function liveViewFits(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream): boolean {
  return Boolean(stderr.isTTY) && !stdout.isTTY;
}
