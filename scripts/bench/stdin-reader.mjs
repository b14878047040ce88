// A bare Node program that reads its stdin (a pipe) to the end and prints the byte count: the floor
// for any Node program reading a pipe, safe-run included. Read the way safe-run reads (net.Socket on
// the fd), either with Node's default of a new Buffer per read ("alloc") or into one reused buffer
// ("reuse", net.Socket's onread option), to show what the allocation costs in time and peak RSS.
import net from 'node:net';

const mode = process.argv[2] ?? 'alloc';
let bytes = 0;
const done = () => process.stdout.write(`${bytes}\n`);

if (mode === 'reuse') {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const onread = {
    buffer,
    callback: (n) => {
      bytes += n;
    },
  };
  new net.Socket({ fd: 0, readable: true, writable: false, onread }).on('end', done);
} else if (mode === 'alloc') {
  const socket = new net.Socket({ fd: 0, readable: true, writable: false });
  socket.on('data', (chunk) => {
    bytes += chunk.length;
  });
  socket.on('end', done);
} else {
  process.stderr.write(`stdin-reader: mode ${mode}: use alloc or reuse\n`);
  process.exitCode = 2;
}
