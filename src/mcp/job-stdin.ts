import fs from 'node:fs';
import path from 'node:path';
import { closeQuietly, makeFifos } from '../engine/kernel-pipes.js';

// What became of a job_input write.
type StdinWrite = { ok: true; bytes: number; closed: boolean } | { ok: false; bytes: number; why: string };

// A background job's stdin: a FIFO in the session's private directory, which the job's first stage
// opens as its stdin file (--stdin FILE), and which the session holds open for reading and writing
// (O_RDWR never blocks, and keeps the job's open from waiting for a writer). job_input writes into it
// without blocking: a job that does not read leaves the pipe full, which is said, not waited for.
// Closing it is the job's end of input.
export class JobStdin {
  private fd: number | null;

  private constructor(readonly path: string) {
    this.fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  }

  static open(dir: string, id: number): JobStdin {
    const file = path.join(dir, `job-${id}-stdin`);
    makeFifos({ dir, paths: [file] });
    return new JobStdin(file);
  }

  get open(): boolean {
    return this.fd !== null;
  }

  write(text: string, end: boolean): StdinWrite {
    if (this.fd === null) return { ok: false, bytes: 0, why: 'its stdin was closed already (eof)' };
    const data = Buffer.from(text);
    let written = 0;
    try {
      while (written < data.length) written += fs.writeSync(this.fd, data, written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'EAGAIN'
          ? `its stdin pipe is full: the job is not reading it; ${data.length - written} bytes were not written`
          : `writing its stdin failed (${code})`;
      return { ok: false, bytes: written, why };
    }
    if (end) this.close();
    return { ok: true, bytes: written, closed: end };
  }

  // The end of input. The FIFO's name stays until the job ends (a later step may open it still).
  close(): void {
    closeQuietly(this.fd);
    this.fd = null;
  }

  // The job ended: nothing of its stdin is left.
  dispose(): void {
    this.close();
    fs.rmSync(this.path, { force: true });
  }
}
