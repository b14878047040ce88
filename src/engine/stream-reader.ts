import net from 'node:net';

export interface StreamReader {
  // Resolves when the stream reached EOF or was abandoned; never rejects.
  readonly ended: Promise<void>;
  readonly isOpen: () => boolean;
  // Stops reading and closes safe-run's end (writers then get SIGPIPE or EPIPE).
  abandon(): void;
  pause(): void;
  resume(): void;
}

// Reads a pipe's read end from first byte to EOF, handing each chunk to `onData`. The fd is made
// non-blocking by libuv, which affects only safe-run's own open file description of the FIFO: the
// writer's end, held by a stage, stays blocking.
export function readStream(fd: number, onData: (chunk: Buffer) => void): StreamReader {
  const socket = new net.Socket({ fd, readable: true, writable: false });
  let open = true;
  let finish: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    finish = () => {
      if (!open) return;
      open = false;
      resolve();
    };
  });
  socket.on('data', onData);
  socket.on('end', finish);
  socket.on('close', finish);
  socket.on('error', finish);
  return {
    ended,
    isOpen: () => open,
    abandon: () => {
      socket.destroy();
      finish();
    },
    pause: () => socket.pause(),
    resume: () => socket.resume(),
  };
}
