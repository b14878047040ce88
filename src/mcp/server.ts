import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { inspectPid } from '../hang/inspect-pid.js';
import { renderHangReport } from '../hang/render-hang.js';
import type { ServerOptions } from './call-settings.js';
import { jobInput, jobKill, jobOutput, listJobs } from './job-tools.js';
import { runTool } from './run-tool.js';
import { RUN_INPUT_SHAPE, runDescription } from './run-tool-schema.js';
import type { Session } from './session.js';
import { RUN_OUTPUT_SHAPE } from './structured.js';
import { failure } from './tool-result.js';

export type { ServerOptions } from './call-settings.js';

const jobId = z.number().int().positive().describe('the job id that run gave');
const seconds = (what: string) => z.number().optional().describe(what);

export function createServer(session: Session, options: ServerOptions): McpServer {
  const server = new McpServer({ name: 'safe-run', version: options.version });
  server.registerTool(
    'run',
    {
      title: 'Run a command (supervised)',
      description: runDescription(options),
      inputSchema: RUN_INPUT_SHAPE,
      outputSchema: RUN_OUTPUT_SHAPE,
    },
    async (args, extra) =>
      runTool(session, options, args, {
        signal: extra.signal,
        progress: {
          progressToken: extra._meta?.progressToken,
          send: (params) => extra.sendNotification({ method: 'notifications/progress', params }),
        },
      }),
  );
  registerJobTools(server, session);
  server.registerTool(
    'inspect',
    {
      title: 'What a running process waits for',
      description:
        'The hang report for a process id and everything below it: per process, its state, the system call it ' +
        'sleeps in, who holds the other end of its pipes, in one sentence each, and a deadlock if there is one. ' +
        'Only reads /proc: nothing is signalled. Use it on a pid that seems stuck (a job, a server).',
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

function registerJobTools(server: McpServer, session: Session): void {
  server.registerTool(
    'job_output',
    {
      title: 'Output and status of a job',
      description:
        'What a job (run with "background": true, or a call still running at its "yield" time) printed since the ' +
        'last read, head and tail within the budget it was started with, and its status: running (with its pids), ' +
        'waiting for an answer (the question it printed), or ended, with the per-stage table and verdict. ' +
        '"wait": seconds to wait for the job to end first (it returns as soon as the job ends).',
      inputSchema: { job: jobId, wait: seconds('seconds to wait for the job to end before answering') },
    },
    async (args) => jobOutput(session, args),
  );
  server.registerTool(
    'job_input',
    {
      title: 'Write to a job stdin',
      description:
        'Writes text to the stdin of a job started with "background": true (answer a prompt: "y\\n"; drive a ' +
        'REPL), then shows what it printed in answer (until it is quiet a moment, ends, or "wait" seconds pass, ' +
        'default 2). "eof": true closes its stdin after the text.',
      inputSchema: {
        job: jobId,
        text: z.string().describe('the bytes to write; end a line with \\n'),
        eof: z.boolean().optional().describe('close the job stdin after the text'),
        wait: seconds('longest wait for its answer (default 2)'),
      },
    },
    async (args) => jobInput(session, args),
  );
  server.registerTool(
    'job_kill',
    {
      title: 'Stop a job',
      description:
        'Stops a job and everything it started: SIGTERM, then SIGKILL half a second later for what is left. ' +
        'Answers once every process of it is gone, with its per-stage table and output since the last read.',
      inputSchema: { job: jobId },
    },
    async (args) => jobKill(session, args),
  );
  server.registerTool(
    'jobs',
    {
      title: 'List the jobs',
      description:
        'Every job of this session: id, running or how it ended, how long, what it waits for, its command.',
      inputSchema: {},
    },
    async () => listJobs(session),
  );
}
