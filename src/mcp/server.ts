import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { AGENT_SETTINGS } from '../agent/agent-defaults.js';
import { maskText, secretValuesFromEnv } from '../capture/mask.js';
import { isRequestError } from '../errors.js';
import { formatBytes, formatDuration } from '../format-units.js';
import { inspectPid } from '../hang/inspect-pid.js';
import { renderHangReport } from '../hang/render-hang.js';
import { compactReport } from '../reporters/compact.js';
import type { Settings } from '../types.js';
import { type CommandOutcome, runCommand } from './run-command.js';
import type { Session } from './session.js';
import { renderToolText } from './tool-text.js';

export interface ServerOptions {
  // Bytes of output text a `run` result shows, head and tail, all streams together.
  budget: number;
  settings: Partial<Settings>;
  version: string;
}

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const failure = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

function runDescription(options: ServerOptions): string {
  const limit = options.settings.timeoutMs ?? AGENT_SETTINGS.timeoutMs!;
  return [
    'Run one shell command line (pipes, &&, cd, export, redirections) under safe-run, which supervises every stage',
    'and reports each one, so a failure inside a pipeline is not hidden by a later stage.',
    `stdin is closed unless you pass "stdin"; nothing can answer a prompt, and a command that stops after printing`,
    `one ("[y/N]", "Password:") is stopped with "waiting for an answer": pass the answer in stdin or use a`,
    `non-interactive flag (-y, --yes). Time limit ${formatDuration(limit)} unless "timeout" (seconds) says more.`,
    `The directory and exported variables persist to the next call, like a terminal; cwd is where to start instead.`,
    'Result: the output (stdout, then stderr of each stage; long output is cut in the middle to',
    `${formatBytes(options.budget)}), a table with one row per stage (STATUS, EXIT), the verdict line "ok, exit N"`,
    'or "not ok, exit N (why)", "next:" with what to look at, and "cwd:" where the session now is.',
    'PAGER=cat, NO_COLOR=1, GIT_TERMINAL_PROMPT=0, GIT_EDITOR=false are set (git commit needs -m). The full JSON report is in structuredContent.',
  ].join(' ');
}

export function createServer(session: Session, options: ServerOptions): McpServer {
  const server = new McpServer({ name: 'safe-run', version: options.version });
  server.registerTool(
    'run',
    {
      title: 'Run a command (supervised)',
      description: runDescription(options),
      inputSchema: {
        command: z.string().min(1).describe('the command line, as you would type it in bash'),
        cwd: z.string().optional().describe('directory to start in (relative to the session directory)'),
        timeout: z.number().positive().optional().describe('time limit in seconds for this call'),
        env: z.record(z.string(), z.string()).optional().describe('variables for this call only'),
        stdin: z.string().optional().describe('text given on stdin (otherwise stdin is closed)'),
      },
    },
    async (args, extra) => session.serialize(() => runTool(session, options, args, extra.signal)),
  );
  server.registerTool(
    'inspect',
    {
      title: 'What a running process waits for',
      description:
        'The hang report for a process id and everything below it: per process, its state, the system call it ' +
        'sleeps in, who holds the other end of its pipes, in one sentence each, and a deadlock if there is one. ' +
        'Only reads /proc: nothing is signalled. Use it on a pid that seems stuck (a server, a background job).',
      inputSchema: { pid: z.number().int().positive().describe('the process id') },
    },
    async ({ pid }) => {
      const result = inspectPid(pid);
      if (!result.available) return failure(`inspect ${pid}: ${result.why}`);
      const { document } = result;
      const title = `inspect ${pid}: ${document.processes.length} process(es), one line each: what it waits for`;
      return {
        content: [{ type: 'text', text: renderHangReport(document, title) }],
        structuredContent: { ...document },
      };
    },
  );
  return server;
}

interface RunArgs {
  command: string;
  cwd?: string | undefined;
  timeout?: number | undefined;
  env?: Record<string, string> | undefined;
  stdin?: string | undefined;
}

async function runTool(
  session: Session,
  options: ServerOptions,
  args: RunArgs,
  signal: AbortSignal,
): Promise<ToolResult> {
  const start = args.cwd === undefined ? session.state.cwd : path.resolve(session.state.cwd, args.cwd);
  if (!isDirectory(start)) {
    const env = { ...process.env, ...session.state.env, ...args.env };
    const shown = maskText(start, secretValuesFromEnv(env, options.settings.mask ?? []));
    return failure(`cwd ${shown}: no such directory; nothing was run (give "cwd" to start elsewhere)`);
  }
  const settings: Partial<Settings> = {
    ...AGENT_SETTINGS,
    ...options.settings,
    maxStdout: options.budget,
    maxStderr: options.budget,
  };
  if (args.timeout !== undefined) settings.timeoutMs = Math.round(args.timeout * 1000);
  if (args.stdin !== undefined) settings.stdin = { kind: 'file', path: session.writeStdin(args.stdin) };
  let outcome: CommandOutcome;
  try {
    outcome = await runCommand({
      text: args.command,
      state: { ...session.state, cwd: start },
      options: settings,
      env: args.env ?? {},
      stateFiles: session.stateFiles,
      signal,
    });
  } catch (error) {
    // Text that is not shell at all (bash would refuse it too) or a refused setting: said, not run.
    if (isRequestError(error)) {
      const env = { ...process.env, ...session.state.env, ...args.env };
      return failure(
        `nothing was run: ${maskText(error.message, secretValuesFromEnv(env, options.settings.mask ?? []))}`,
      );
    }
    throw error;
  }
  session.state = outcome.state;
  // The report is masked; the session's directory and the reason for bash are said beside it.
  const secrets = secretValuesFromEnv(
    { ...process.env, ...outcome.state.env, ...args.env },
    options.settings.mask ?? [],
  );
  const m = (text: string) => maskText(text, secrets);
  const { fallback } = outcome;
  return {
    content: [{ type: 'text', text: m(renderToolText(outcome, options.budget)) }],
    structuredContent: {
      ...compactReport(outcome.report),
      cwd: m(outcome.state.cwd),
      fallback: fallback ? { ...fallback, reason: m(fallback.reason) } : null,
      stateKnown: outcome.stateKnown,
      report: outcome.report,
    },
    isError: !outcome.report.ok,
  };
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
