import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ENV, AGENT_SETTINGS } from '../../src/agent/agent-defaults.js';
import { planCommand, startCommand } from '../../src/mcp/run-command.js';
import { compactReport } from '../../src/reporters/compact.js';
import { stateFilesIn } from '../../src/session/state-files.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { runCli } from '../helpers/cli.js';

// The twelve command forms agents type most (issue 10), each run in a small project where its output
// is small: the compact report an agent reads back must stay under 600 bytes.
const FORMS: [string, string[]][] = [
  ['ls 2>&1 | tail -n 40', ['ls', 'tail']],
  ['grep -rn TODO src 2>/dev/null | head', ['grep', 'head']],
  ['cd src && ls | wc -l', ['cd', 'ls', 'wc']],
  // `echo failed` is skipped: a step that did not run has no row.
  ['make build || echo failed', ['make']],
  ['git log -n 5 --format=%s > log.txt', ['git']],
  ['sort < data.csv | head', ['sort', 'head']],
  ['ls *.txt | wc -l', ['ls', 'wc']],
  ["echo $PATH | tr : '\\n'", ['echo', 'tr']],
  ['ls ~ | head', ['ls', 'head']],
  ['cat "$HOME/.profile" | wc -l', ['cat', 'wc']],
  ['find . -name "*.ts" | xargs grep -l TODO', ['find', 'xargs']],
  ["cat > notes.md << 'EOF'\n# notes\nshipped $HOME as is\nEOF", ['cat']],
];

let dir: string;
let home: string;

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-forms-')));
  home = path.join(dir, 'home');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, '.profile'), 'export EDITOR=vi\numask 022\n');
  fs.writeFileSync(path.join(home, 'todo.txt'), '');
  fs.writeFileSync(path.join(dir, 'src', 'main.ts'), '// TODO: split\nexport const x = 1;\n');
  fs.writeFileSync(path.join(dir, 'src', 'util.ts'), 'export const y = 2;\n');
  fs.writeFileSync(path.join(dir, 'data.csv'), 'b,2\na,1\nc,3\n');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  fs.writeFileSync(path.join(dir, 'b.txt'), 'b\n');
  fs.writeFileSync(path.join(dir, 'Makefile'), 'build:\n\t@echo built\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'first commit');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('compact reports of the common agent forms', () => {
  it.each(FORMS)('%j: exit 0, one row per command, compact report under 600 bytes', async (form, stages) => {
    const stateDir = fs.mkdtempSync(path.join(dir, 'state-'));
    const stateFiles = stateFilesIn(stateDir);
    const planned = planCommand(form, { ...DEFAULT_SETTINGS, ...AGENT_SETTINGS, facts: null }, stateFiles);
    const outcome = await startCommand(planned, {
      state: { cwd: dir, env: { ...AGENT_ENV, HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' }, vars: {} },
      env: {},
      stateFiles,
      support: null,
      io: {},
    }).outcome;
    const { report } = outcome;
    expect(report.exitCode).toBe(0);
    // The shell front end ran it: a row per command as written, not one bash row.
    expect(outcome.fallback).toBeNull();
    expect(report.fallback).toBeNull();
    expect(report.stages.map((stage) => stage.name)).toEqual(stages);
    const compact = JSON.stringify(compactReport(report));
    expect(compact).not.toContain('\n');
    expect(Buffer.byteLength(compact)).toBeLessThan(600);
  });

  it('wrote the heredoc body byte for byte, $HOME unexpanded under a quoted delimiter', () => {
    expect(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8')).toBe('# notes\nshipped $HOME as is\n');
    expect(fs.readFileSync(path.join(dir, 'log.txt'), 'utf8')).toBe('first commit\n');
  });

  it('the form -c runs today gives the same under safe-run --agent --json compact', async () => {
    const result = await runCli(['--agent', '--json', 'compact', '--no-facts', '-c', FORMS[10]![0]], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trimEnd()).not.toContain('\n');
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(600);
    const compact = JSON.parse(result.stdout);
    expect(compact.stages.map((stage: { name: string }) => stage.name)).toEqual(['find', 'xargs']);
    expect(compact.stages[1].stdout).toEqual({ bytes: 14, text: './src/main.ts\n' });
  });
});
