import { Command, CommanderError } from 'commander';
import { defaultLedgerPath } from '../facts/ledger.js';
import { createServer, type ServerOptions } from '../mcp/server.js';
import { Session } from '../mcp/session.js';
import { LineTransport } from '../mcp/stdio-transport.js';
import { parseSize } from '../settings/read-units.js';
import type { Settings } from '../types.js';
import type { CliIO } from './cli-io.js';
import { requestErrorFrom } from './commander-error.js';
import { serverSettingOptions, serverSettings } from './mcp-flags.js';
import { widenThreadPool } from './thread-pool.js';

declare const SAFE_RUN_VERSION: string;

type McpFlags = Record<string, unknown> & { budget: string };

function parseMcpFlags(args: string[]): { flags: McpFlags | null; help: string } {
  let help = '';
  let message = '';
  const program = new Command('safe-run mcp')
    .description(
      'A Model Context Protocol server on stdin/stdout: tools run, job_output, job_input, job_kill, jobs and inspect (docs/agents.md).',
    )
    .option('--budget <size>', 'output text one run result shows, head and tail', '30000');
  for (const option of serverSettingOptions()) program.addOption(option);
  program
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => {
        help += text;
      },
      writeErr: (text) => {
        message += text;
      },
    });
  try {
    program.parse(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.helpDisplayed')
      return { flags: null, help };
    if (error instanceof CommanderError) throw requestErrorFrom(error, message, 'safe-run mcp --help');
    throw error;
  }
  return { flags: program.opts() as McpFlags, help };
}

function serverOptions(flags: McpFlags, env: NodeJS.ProcessEnv): ServerOptions {
  const settings: Partial<Settings> = { facts: defaultLedgerPath(env), mask: [], ...serverSettings(flags) };
  return {
    budget: parseSize(flags.budget, '--budget'),
    settings,
    version: typeof SAFE_RUN_VERSION === 'string' ? SAFE_RUN_VERSION : '0.0.0',
  };
}

// `safe-run mcp`: serves one session on stdio until the client closes stdin or goes away (stdout
// cannot be written): then every call and job is stopped, their processes gone within a second or so
// (SIGTERM, SIGKILL half a second later), and the server ends. Request errors (bad flags) are thrown
// before the server starts, and become exit 125 like any other.
export async function mcpCommand(args: string[], io: CliIO): Promise<number> {
  const { flags, help } = parseMcpFlags(args);
  if (!flags) {
    io.stdout.write(help);
    return 0;
  }
  const options = serverOptions(flags, io.env);
  // Runs of the session may hold several >(list) jobs at once, each waiting on one of libuv's threads.
  widenThreadPool();
  const session = new Session(process.cwd());
  const server = createServer(session, options);
  const transport = new LineTransport(process.stdin, io.stdout);
  const gone = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await gone;
  await session.close();
  await server.close();
  return 0;
}
