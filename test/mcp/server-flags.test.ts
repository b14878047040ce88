import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type McpSession, scratchDir, startSession } from './mcp-client.js';

// `safe-run mcp`'s settings flags are rows of the settings table, read as `safe-run` reads them.
describe('safe-run mcp flags', () => {
  let session: McpSession | null = null;
  afterAll(async () => {
    await session?.close();
  });

  it('read a limit as the table does: 0 is none, a unit is understood', async () => {
    session = await startSession(scratchDir('safe-run-mcp-flags-'), [
      '--timeout',
      '0',
      '--idle-timeout',
      '90s',
    ]);
    const { tools } = await session.client.listTools();
    const description = tools.find((tool) => tool.name === 'run')!.description!;
    expect(description).toMatch(/time none per call/);
    expect(description).toMatch(/idle 1m30s without any output/);
  });

  it('refuse what the table refuses, before the server starts', async () => {
    const mask = await runCli(['mcp', '--mask', 'not a name']);
    expect(mask.code).toBe(125);
    expect(mask.stdout).toBe('');
    expect(mask.stderr).toBe(
      'safe-run: --mask "not a name": not a variable name; give the name (letters, digits, _), not its value\n',
    );
    const timeout = await runCli(['mcp', '--prompt-wait', 'soon']);
    expect(timeout.code).toBe(125);
    expect(timeout.stderr).toMatch(/^safe-run: --prompt-wait: "soon" is not a duration/);
  });

  it('show their argument and the agent default in --help', async () => {
    const help = await runCli(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--timeout <duration> +default time limit of a run \(default: 2m\)/);
    expect(help.stdout).toMatch(/--mask <name\.\.\.> +mask the values/);
  });
});
