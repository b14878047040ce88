import fs from 'node:fs';
import { closeQuietly, type FifoBatch, type KernelPipe, makeFifos, openFifos } from './kernel-pipes.js';
import type { StageFds } from './spawn-stage.js';

// Which pipe, by device and inode: how a holder of one of its ends is recognised in /proc.
export interface PipeId {
  dev: bigint;
  ino: bigint;
}

// Every descriptor safe-run opens for one run's stages. Each is closed exactly once: the stages' ends
// once they are spawned, the read ends by their readers, and whatever is still open by release().
export class PipelinePipes {
  // links[i] carries stage i+1's stdout to stage i+2's stdin (0-based i).
  readonly links: readonly KernelPipe[];
  // Each link's identity, kept after safe-run closed its ends of it.
  readonly linkIds: readonly PipeId[];
  readonly errPipes: readonly KernelPipe[];
  readonly outPipe: KernelPipe;
  private readonly open = new Set<number>();

  // Takes ownership of `stdin` (a descriptor of the first stage's input, or how to give it one) unless
  // it is `shared` (the steps of a -c text read one), and of `fifos`, the run's reserved FIFOs
  // (pipeCount(count) of them), made already or not.
  constructor(
    count: number,
    readonly stdin: number | 'inherit' | 'ignore',
    fifos: { batch: FifoBatch; made: boolean },
    shared = false,
  ) {
    if (typeof stdin === 'number' && !shared) this.open.add(stdin);
    let pipes: KernelPipe[];
    try {
      pipes = openReserved(fifos.batch, fifos.made);
    } catch (error) {
      this.release();
      throw error;
    }
    for (const pipe of pipes) {
      this.open.add(pipe.readFd);
      this.open.add(pipe.writeFd);
    }
    this.links = pipes.slice(0, count - 1);
    this.linkIds = this.links.map((pipe) => {
      const stat = fs.fstatSync(pipe.readFd, { bigint: true });
      return { dev: stat.dev, ino: stat.ino };
    });
    this.errPipes = pipes.slice(count - 1, 2 * count - 1);
    this.outPipe = pipes[2 * count - 1]!;
  }

  // A read end passes to its reader, which closes it at EOF or when abandoned.
  handOver(fd: number): number {
    this.open.delete(fd);
    return fd;
  }

  // The stages hold their ends now; safe-run keeping a write end would hide EOF from a reader.
  closeStageEnds(): void {
    for (const pipe of this.links) this.close(pipe.readFd, pipe.writeFd);
    for (const pipe of this.errPipes) this.close(pipe.writeFd);
    this.close(this.outPipe.writeFd);
    if (typeof this.stdin === 'number') this.close(this.stdin);
  }

  // A stage that will not run (a failed redirection, a missing program under -c) closes its stdin's
  // pipe at once, so the stage writing into it meets SIGPIPE, as in bash.
  closeLinkReader(i: number): void {
    const link = this.links[i - 1];
    if (link) this.close(link.readFd);
  }

  // Closes whatever is still open: on every path, an exception included.
  release(): void {
    this.close(...this.open);
  }

  private close(...fds: number[]): void {
    for (const fd of fds) {
      if (this.open.delete(fd)) closeQuietly(fd);
    }
  }
}

// What is left of the batch on disk, opened or not, is removed by whoever reserved it (RunSupport).
function openReserved(batch: FifoBatch, made: boolean): KernelPipe[] {
  if (!made) makeFifos(batch);
  return openFifos(batch);
}

// Every stage's stderr, the link to the next stage, and the last stage's stdout.
export function pipeCount(stages: number): number {
  return stages - 1 + stages + 1;
}

// The one place a stage's three stdio descriptors are chosen, right before it is spawned: the first
// stage reads the run's stdin, each stage writes into the next one's pipe and the last into safe-run's,
// and every stderr goes to a pipe of its own that safe-run reads. Whatever changes where a stage reads
// or writes (redirections) applies here.
export function stageStdio(pipes: PipelinePipes, i: number): StageFds {
  const last = i === pipes.errPipes.length - 1;
  return {
    stdin: i === 0 ? pipes.stdin : pipes.links[i - 1]!.readFd,
    stdout: last ? pipes.outPipe.writeFd : pipes.links[i]!.writeFd,
    stderr: pipes.errPipes[i]!.writeFd,
    further: [],
  };
}
