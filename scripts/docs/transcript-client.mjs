// The pieces scripts/docs/agents-transcript.mjs is made of: a `safe-run mcp` session driven by the MCP
// SDK's own client (as an agent's client drives it), each call recorded in the form docs/agents.md
// shows it, and the replacement of a fenced block of that file by what was recorded.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN_DIR = path.join(ROOT, 'bin');

// Long enough for the slowest call of the transcripts on a loaded machine; only a guard against a hang.
const CALL_DEADLINE_MS = 180_000;

// A session of `safe-run mcp` started in `dir`, as a client configured with `"command": "safe-run",
// "args": ["mcp"]` starts it. `lines` collects the transcript: `>>> tool {args}`, `(isError: true)`
// when so, then the result's text, a blank line between calls.
export async function startTranscript(dir, env) {
  const client = new Client({ name: 'agents-transcript', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: path.join(BIN_DIR, 'safe-run'), args: ['mcp'], cwd: dir, env }),
  );
  const lines = [];
  // Calls the transcript does not show (waiting for a job to reach the state the next shown call is
  // about): they read nothing a shown call would have read.
  async function quietly(tool, args, onprogress) {
    const options = { timeout: CALL_DEADLINE_MS, ...(onprogress ? { onprogress } : {}) };
    const result = await client.callTool({ name: tool, arguments: args }, undefined, options);
    const text = result.content.map((part) => part.text).join('');
    return { text, isError: Boolean(result.isError), structured: result.structuredContent ?? {} };
  }
  async function call(tool, args, onprogress) {
    const answer = await quietly(tool, args, onprogress);
    const head = `>>> ${tool} ${JSON.stringify(args)}${answer.isError ? '  (isError: true)' : ''}`;
    lines.push(`${head}\n${answer.text.trimEnd()}`);
    return answer;
  }
  // text(from): the transcript from the `from`th call shown; calls(): how many were shown so far.
  return {
    call,
    quietly,
    calls: () => lines.length,
    text: (from = 0) => lines.slice(from).join('\n\n'),
    close: () => client.close(),
  };
}

// A shell line run as the doc's ```console blocks show it: `$ LINE`, then what it printed (stdout and
// stderr together), with this checkout's bin/ first on PATH so that `safe-run` is the one just built.
export function consoleLine(line, dir, env) {
  const result = spawnSync('bash', ['-c', `exec 2>&1; ${line}`], {
    cwd: dir,
    env: { ...env, PATH: `${BIN_DIR}:${env.PATH}` },
    encoding: 'utf8',
  });
  return `$ ${line}\n${result.stdout.trimEnd()}`;
}

// Replaces the body of the fenced block of `file` whose first line is `first` (or starts with it when
// `prefix`) by `body`. Throws when there is no such block, so a rerun never writes half a doc.
export function replaceBlock(text, first, body, { prefix = false } = {}) {
  const lines = text.split('\n');
  const start = lines.findIndex(
    (line, i) =>
      i > 0 && lines[i - 1].startsWith('```') && (prefix ? line.startsWith(first) : line === first),
  );
  if (start === -1) throw new Error(`no fenced block starts with: ${first}`);
  const end = lines.findIndex((line, i) => i > start && line === '```');
  return [...lines.slice(0, start), body, ...lines.slice(end)].join('\n');
}

export function writeDoc(file, blocks) {
  let text = fs.readFileSync(file, 'utf8');
  for (const block of blocks) text = replaceBlock(text, block.first, block.body, block);
  fs.writeFileSync(file, text);
}
