import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from '../helpers/cli.js';

// `safe-run mcp` driven by the MCP SDK's own client over stdio, as an agent's client drives it.

export interface ToolAnswer {
  text: string;
  isError: boolean;
  structured: Record<string, unknown>;
}

export interface McpSession {
  dir: string;
  client: Client;
  call(
    tool: string,
    args: Record<string, unknown>,
    onprogress?: (progress: Progress) => void,
  ): Promise<ToolAnswer>;
  close(): Promise<void>;
}

// A hang guard for one call, never a speed check.
const CALL_DEADLINE_MS = 120_000;

export function scratchDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export async function startSession(dir: string, args: string[] = []): Promise<McpSession> {
  const env = { ...process.env, SAFE_RUN_FACTS: path.join(dir, 'facts.jsonl') } as Record<string, string>;
  const client = new Client({ name: 'safe-run-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      cwd: dir,
      env,
      stderr: 'pipe',
    }),
  );
  return {
    dir,
    client,
    async call(tool, args, onprogress) {
      const options = { timeout: CALL_DEADLINE_MS, ...(onprogress ? { onprogress } : {}) };
      const result = await client.callTool({ name: tool, arguments: args }, undefined, options);
      const content = result.content as { type: string; text: string }[];
      return {
        text: content.map((part) => part.text).join(''),
        isError: Boolean(result.isError),
        structured: (result.structuredContent ?? {}) as Record<string, unknown>,
      };
    },
    close: () => client.close(),
  };
}

// Processes whose environment holds NAME=value: a test gives its calls a mark of its own and finds
// every process they left, wherever it went (a new session, a new parent).
export function markedProcesses(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`);
      if (environ.indexOf(needle) === 0 || environ.includes(Buffer.concat([Buffer.from('\0'), needle]))) {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (!stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) found.push(Number(entry));
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

// The server as a raw child, for what the SDK's client never sends (malformed lines) or does not show
// (the server's own exit): lines written to its stdin, JSON lines read from its stdout.
export interface RawServer {
  child: ChildProcess;
  send(line: string): void;
  // The next JSON message on its stdout.
  next(): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

export function startRaw(dir: string): RawServer {
  const child = spawn(process.execPath, [BIN, 'mcp'], {
    cwd: dir,
    env: { ...process.env, SAFE_RUN_FACTS: path.join(dir, 'facts.jsonl') },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    send: (line) => child.stdin!.write(`${line}\n`),
    next: () =>
      new Promise((resolve) => {
        const line = lines.shift();
        if (line !== undefined) resolve(JSON.parse(line));
        else waiters.push((next) => resolve(JSON.parse(next)));
      }),
    exited,
  };
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
