import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll.js';
import { commandOf, descendants, killAll, lookAt } from './helpers.js';

// Event loops that are not Node's: Python's selectors and asyncio, and programs in select/poll on
// their stdin. Each is a real process, inspected once it has reached its idle state.

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) killAll([...descendants(child.pid!), child.pid!]);
});

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

function start(command: string, args: string[], options: Parameters<typeof spawn>[2] = {}): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore', ...options });
  started.push(child);
  return child;
}

// The process's line once its wait is of the kind wanted (start-up reads files, imports modules).
async function settled(root: number, pid: number, wait: string) {
  return waitFor(
    `pid ${pid} to be in a '${wait}' wait`,
    () => {
      const entry = lookAt(root).processes.find((proc) => proc.pid === pid);
      return entry?.wait === wait && entry;
    },
    40_000,
  );
}

// `sleep 600 | perl ...` under sh: both pids, once each has exec'd (under load sh's children may still
// be copies of sh for a while).
async function both(root: number) {
  const find = (command: RegExp) => descendants(root).find((pid) => command.test(commandOf(pid)));
  const perl = await waitFor('perl to start', () => find(/^perl /), 40_000);
  const sleep = await waitFor('sleep to start', () => find(/^sleep 600$/), 40_000);
  return { perl, sleep };
}

const PYTHON_ADVICE = /if it should have exited, a scheduled callback or a timeout keeps it alive/;

describe.skipIf(!has('python3'))('Python event loops', () => {
  it('a selector waiting with a timeout is idle with a timer, told in Python’s words', async () => {
    const code = [
      'import selectors, socket',
      'sel = selectors.DefaultSelector()',
      'a, b = socket.socketpair()',
      'sel.register(a, selectors.EVENT_READ)',
      'sel.select(600)',
    ].join('\n');
    const { pid } = start('python3', ['-c', code]);
    const entry = await settled(pid!, pid!, 'timer');
    expect(entry.explanation).toMatch(/^idle with a timer pending \(next in \d+ ms\): it wakes by itself; /);
    expect(entry.explanation).toMatch(PYTHON_ADVICE);
    expect(entry.explanation).not.toMatch(/clearInterval|unref/);
  }, 60_000);

  it('an asyncio loop with only a call_later left is idle with a timer, told in Python’s words', async () => {
    const code = [
      'import asyncio',
      'async def main():',
      '    asyncio.get_running_loop().call_later(600, print)',
      '    await asyncio.Event().wait()',
      'asyncio.run(main())',
    ].join('\n');
    const { pid } = start('python3', ['-c', code]);
    const entry = await settled(pid!, pid!, 'timer');
    expect(entry.explanation).toMatch(PYTHON_ADVICE);
    expect(entry.explanation).not.toMatch(/clearInterval|unref/);
  }, 60_000);

  it('an asyncio server is kept alive by its open server, named by its address', async () => {
    const code = [
      'import asyncio',
      'async def main():',
      '    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)',
      '    print(server.sockets[0].getsockname()[1], flush=True)',
      '    await server.serve_forever()',
      'asyncio.run(main())',
    ].join('\n');
    const child = start('python3', ['-c', code], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const port = await waitFor('the server to print its port', () => /^(\d+)\n/.exec(out)?.[1], 40_000);
    const entry = await settled(child.pid!, child.pid!, 'server');
    expect(entry.explanation).toBe(
      `kept alive by an open server (listening on 127.0.0.1:${port}): it runs until the server is closed (asyncio: server.close(); socketserver: shutdown())`,
    );
  }, 60_000);

  it('http.server (socketserver, in poll with a half-second timeout) is a server, not a timer', async () => {
    const args = ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1'];
    const child = start('python3', args, { stdio: ['ignore', 'pipe', 'ignore'], cwd: os.tmpdir() });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const port = await waitFor('the server to print its port', () => /port (\d+)/.exec(out)?.[1], 40_000);
    const entry = await settled(child.pid!, child.pid!, 'server');
    expect(entry.explanation).toMatch(
      new RegExp(
        `^kept alive by an open server \\(listening on 127\\.0\\.0\\.1:${port}\\): .*socketserver: shutdown\\(\\)`,
      ),
    );
  }, 60_000);
});

describe('select and poll on stdin', () => {
  it('a select on stdin alone names stdin and the process that holds the pipe’s other end', async () => {
    // perl is inspected alone: its writer, sleep, is outside the inspected tree and never writes.
    const script = "sleep 600 | perl -e 'vec($r, 0, 1) = 1; select($r, undef, undef, undef)'";
    const { pid: root } = start('sh', ['-c', script]);
    const { perl, sleep } = await both(root!);
    const entry = await settled(perl, perl, 'events');
    expect(entry.explanation).toBe(
      `waiting for input in pselect6 on stdin (a pipe from pid ${sleep} \`sleep 600\`)`,
    );
    expect(entry.blocked).toEqual({ op: 'poll', fd: null, target: 'watching fds 0', unread: null });
  }, 60_000);

  it('the same wait with its writer inside the tree is part of the wait-for graph, told the same way', async () => {
    const script = "sleep 600 | perl -e 'vec($r, 0, 1) = 1; select($r, undef, undef, undef)'";
    const { pid: root } = start('sh', ['-c', script]);
    const { perl, sleep } = await both(root!);
    const entry = await settled(root!, perl, 'input');
    expect(entry.explanation).toBe(
      `waiting for input in pselect6 on stdin (a pipe from pid ${sleep} \`sleep 600\`)`,
    );
  }, 60_000);

  it.skipIf(!has('vim') || !has('script'))(
    'vim in a terminal waits for input on its terminal',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-vim-'));
      // script gives vim a terminal; its own stdin is a pipe the test never writes to.
      const root = start('script', ['-qc', 'vim -u NONE -i NONE -n -N notes.txt', '/dev/null'], {
        cwd: dir,
        stdio: ['pipe', 'ignore', 'ignore'],
        env: { ...process.env, TERM: 'xterm' },
      });
      const vim = await waitFor(
        'vim to start',
        () => descendants(root.pid!).find((pid) => commandOf(pid).startsWith('vim ')),
        40_000,
      );
      // Vim first waits with a timeout ('updatetime'), then without one.
      const entry = await settled(root.pid!, vim, 'events');
      expect(entry.explanation).toMatch(
        /^waiting for input in (pselect6|select|poll|ppoll) on stdin \(the terminal \/dev\/pts\/\d+\)/,
      );
    },
    60_000,
  );
});
