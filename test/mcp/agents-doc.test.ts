import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { type McpSession, scratchDir, startSession } from './mcp-client.js';

// docs/agents.md's first session ("A session, as the model sees it") replayed call by call: each
// call still has the shape the doc shows (isError, the table's stages and their statuses, whether
// bash ran it), so that the transcript cannot go stale unseen (a for loop it showed as "run by bash"
// had been interpreted for weeks). Times, pids and paths are not compared.
// scripts/docs/agents-transcript.mjs retakes the transcript itself.

interface DocCall {
  args: Record<string, unknown>;
  isError: boolean;
  text: string;
}

function firstSession(): DocCall[] {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'agents.md'), 'utf8');
  const start = doc.indexOf('```text\n>>> run {"command":"cd src && ls | wc -l"}');
  const block = doc.slice(start + '```text\n'.length, doc.indexOf('\n```', start + 1));
  return block.split(/\n\n(?=>>> )/).map((call) => {
    const [head, ...rest] = call.split('\n');
    const match = /^>>> run (\{.*\})( {2}\(isError: true\))?$/.exec(head!)!;
    return { args: JSON.parse(match[1]!), isError: match[2] !== undefined, text: rest.join('\n') };
  });
}

// What does not change from one run to the next: each row's stage and status, and a bash fallback.
function shape(text: string): string[] {
  return text
    .split('\n')
    .map((line) => /^\d+ +(\S+) +(\S+) /.exec(line)?.slice(1, 3).join(' ') ?? line)
    .filter(
      (line) => /^\S+ (ok|failed|timeout|cancelled|skipped)$/.test(line) || line.startsWith('run by bash'),
    );
}

let session: McpSession;

beforeAll(async () => {
  const dir = scratchDir('safe-run-agents-doc-');
  fs.mkdirSync(path.join(dir, 'src'));
  for (const name of ['a.ts', 'b.ts', 'c.ts']) fs.writeFileSync(path.join(dir, 'src', name), '');
  fs.copyFileSync(path.join(FIXTURES, 'agent', 'ask'), path.join(dir, 'ask'));
  fs.chmodSync(path.join(dir, 'ask'), 0o755);
  session = await startSession(dir);
});

afterAll(async () => {
  await session?.close();
  fs.rmSync(session.dir, { recursive: true, force: true });
});

describe('docs/agents.md, the first session', () => {
  const calls = firstSession();

  it('holds the calls this test replays', () => {
    expect(calls.length).toBeGreaterThanOrEqual(7);
    expect(calls.map((call) => call.args.command)).toContain(
      'cd .. && for f in src/*.ts; do wc -c "$f"; done',
    );
  });

  it('shows what each call still answers: isError, the stages and their statuses, no bash unless shown', async () => {
    for (const call of calls) {
      const answer = await session.call('run', call.args);
      const label = JSON.stringify(call.args);
      expect({ label, isError: answer.isError }).toEqual({ label, isError: call.isError });
      expect({ label, shape: shape(answer.text) }).toEqual({ label, shape: shape(call.text) });
    }
  });
});
