import type { DeadlockKind } from '../types.js';

// What breaks a deadlock, by how it was built (docs/debugging-hangs.md). A longer limit never does.
export function deadlockAdvice(kind: DeadlockKind): string {
  switch (kind) {
    case 'unread-output':
      return 'the program must read that pipe while it waits (a reader thread, asyncio, communicate()) or send the output to a file';
    case 'unclosed-input':
      return 'the program must close its end of the pipe (the child’s stdin) before it waits: the reader only ends at end of file';
    case 'lock':
      return 'each holds a lock the other waits for: take locks in one order, or release them before waiting';
    case 'silent-peer':
      return 'both ends of the socket wait for the other to send first: fix who speaks first, or give the read a timeout';
    case 'children':
      return 'each waits for the other: the cycle must be broken in the program';
  }
}

// A program that opened the terminal itself (/dev/tty) asks for a password or a confirmation; its
// stdin is not where it reads, so `--stdin null` cannot answer it. What makes each one not ask.
export function terminalAdvice(command: string): string {
  const program = (command.split(' ')[0] ?? '').split('/').pop() ?? '';
  if (program === 'git' || program.startsWith('git-'))
    return 'run it with GIT_TERMINAL_PROMPT=0 so that git fails at once instead of asking, and give credentials through a credential helper';
  if (program === 'ssh' || program === 'scp' || program === 'sftp')
    return 'run it with -o BatchMode=yes so that ssh fails instead of asking for a password or a host key, and use a key';
  if (program === 'sudo') return 'run sudo -n so that it fails instead of asking for a password';
  return 'it reads the terminal directly, not its stdin, so --stdin cannot answer it: use its non-interactive option';
}

// The runtime whose words the advice for an idle event loop uses, from the program's name.
function runtimeOf(command: string): 'node' | 'python' | null {
  const program = (command.split(' ')[0] ?? '').split('/').pop() ?? '';
  if (program === 'node' || program === 'nodejs' || program === 'deno' || program === 'bun') return 'node';
  return /^python[0-9.]*$/.test(program) ? 'python' : null;
}

// What keeps a process with a pending timer alive, said in its runtime's words where they are known.
export function timerAdvice(command: string): string {
  const runtime = runtimeOf(command);
  if (runtime === 'node')
    return 'if it should have exited, a timer keeps it alive (clearInterval/clearTimeout, or unref() it)';
  if (runtime === 'python')
    return 'if it should have exited, a scheduled callback or a timeout keeps it alive (asyncio call_later, a selector timeout)';
  return 'if it should have exited, it is waiting with a time limit of its own (a poll or select timeout)';
}

// How a program with a listening socket stops serving, in its runtime's words.
export function serverAdvice(command: string): string {
  const runtime = runtimeOf(command);
  if (runtime === 'node') return 'it runs until the server is closed (server.close(), or unref() it)';
  if (runtime === 'python')
    return 'it runs until the server is closed (asyncio: server.close(); socketserver: shutdown())';
  return 'it runs until it closes its listening socket';
}
