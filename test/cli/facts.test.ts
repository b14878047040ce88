import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fact } from '../../src/facts/fold-facts.js';
import type { Report, ReportFact } from '../../src/types.js';
import { bashStatus, type CliResult, FIXTURES, runCli } from '../helpers/index.js';

// Environment facts through the real CLI: real programs on a real PATH, a real ledger file, and
// exit codes checked against real bash running the same program.

const HINT = 'an environment problem: running the same command again will not help until the machine changes';

let root: string;
let counter = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'safe-run-cli-facts-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

interface Machine {
  dir: string;
  bin: string;
  ledger: string;
  // The environment every safe-run of this test gets: its own PATH, UTC times in sentences.
  env: Record<string, string>;
}

// A fresh directory with an empty bin/ first on PATH and a ledger that does not exist yet.
function freshMachine(): Machine {
  counter += 1;
  const dir = join(root, `machine-${counter}`);
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  return {
    dir,
    bin,
    ledger: join(dir, 'state', 'facts.jsonl'),
    env: { PATH: `${bin}:/usr/bin:/bin`, TZ: 'UTC' },
  };
}

function install(machine: Machine, fixture: string, as: string, mode = 0o755): string {
  const file = join(machine.bin, as);
  copyFileSync(join(FIXTURES, 'facts', fixture), file);
  chmodSync(file, mode);
  return file;
}

// Runs a pipeline with the JSON report and the given ledger.
async function runReport(
  machine: Machine,
  args: string[],
  extra: string[] = [],
): Promise<{ result: CliResult; report: Report }> {
  const result = await runCli(['--json', '--facts', machine.ledger, ...extra, ...args], {
    env: machine.env,
    cwd: machine.dir,
    deadlineMs: 60_000,
  });
  try {
    return { result, report: JSON.parse(result.stdout) as Report };
  } catch {
    throw new Error(`no JSON report (exit ${result.code}); stderr: ${result.stderr}`);
  }
}

async function factsCommand(machine: Machine, args: string[]): Promise<CliResult> {
  return runCli(['facts', '--facts', machine.ledger, ...args], { env: machine.env, cwd: machine.dir });
}

async function ledgerFacts(machine: Machine, all = true): Promise<Array<Fact & { summary: string }>> {
  const result = await factsCommand(machine, all ? ['--all', '--json'] : ['--json']);
  expect(result.code).toBe(0);
  const document = JSON.parse(result.stdout) as { ledger: string; facts: Array<Fact & { summary: string }> };
  expect(document.ledger).toBe(machine.ledger);
  return document.facts;
}

function ledgerLines(machine: Machine): string[] {
  if (!existsSync(machine.ledger)) return [];
  const text = readFileSync(machine.ledger, 'utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text.split('\n').filter((line) => line !== '');
}

// The "HH:MM" describeFact prints for an ISO time (the CLI runs with TZ=UTC).
function hhmm(iso: string): string {
  return iso.slice(11, 16);
}

interface Cause {
  title: string;
  program: string;
  setUp: (machine: Machine) => void;
  code: string;
  cause: string;
  // The cause in words, as the fact sentence says it.
  words: string;
  // What the stage's error message must say.
  message: RegExp;
  interpreter: string | null;
  // The process exit code does not yet match bash's: see the note above the exit-code tests.
  verdictBug?: true;
}

const CAUSES: Cause[] = [
  {
    title: 'a program that is not on PATH',
    program: 'poetry',
    setUp: () => {},
    code: 'ENOENT',
    cause: 'not-on-path',
    words: 'not on PATH',
    message: /^`poetry` was not found on PATH \(searched 3 directories\); install it or fix PATH$/,
    interpreter: null,
  },
  {
    title: 'a program found on PATH but not executable',
    program: 'poetry',
    setUp: (machine) => install(machine, 'fake-poetry', 'poetry', 0o644),
    code: 'EACCES',
    cause: 'not-executable',
    words: 'not executable',
    message:
      /^`poetry`: found \S+\/bin\/poetry on PATH but it is not executable \(mode 644\); make it executable/,
    interpreter: null,
  },
  {
    title: 'a script whose #! interpreter does not exist',
    program: 'py-tool',
    setUp: (machine) => install(machine, 'missing-python-tool', 'py-tool'),
    code: 'EBADINTERP',
    cause: 'missing-interpreter',
    words: 'interpreter /opt/missing/python missing',
    message:
      /^py-tool: its interpreter \/opt\/missing\/python \(from the #! line\) does not exist; install it or fix the #! line$/,
    interpreter: '/opt/missing/python',
  },
  {
    title: 'a script whose #!/usr/bin/env program is not on PATH',
    program: 'env-tool',
    setUp: (machine) => install(machine, 'env-missing-python-tool', 'env-tool'),
    code: 'EBADINTERP',
    cause: 'missing-interpreter',
    words: 'interpreter missing-python missing',
    message:
      /^env-tool: its interpreter `missing-python` \(from #!\/usr\/bin\/env missing-python\) is not on PATH \(searched 3 directories\); install it or fix the #! line$/,
    interpreter: 'missing-python',
  },
];

describe('each cause of a program that cannot be started', () => {
  for (const c of CAUSES) {
    it(`reports ${c.title} as not-started, in words, with a hint, and records the fact`, async () => {
      const machine = freshMachine();
      c.setUp(machine);
      const expectedExit = bashStatus(c.program, machine.env, machine.dir);
      expect(expectedExit === 126 || expectedExit === 127).toBe(true);

      const { report } = await runReport(machine, ['--', c.program, 'install']);
      const stage = report.stages[0]!;
      expect(stage.status).toBe('not-started');
      expect(stage.exitCode).toBeNull();
      expect(stage.pid).toBeNull();
      expect(stage.error?.code).toBe(c.code);
      expect(stage.error?.message).toMatch(c.message);
      expect(stage.hint).toBe(HINT);
      expect(report.ok).toBe(false);

      expect(report.facts).toHaveLength(1);
      const fact = report.facts[0]!;
      expect(fact).toMatchObject({
        stage: 1,
        program: c.program,
        code: c.code,
        cause: c.cause,
        exitCode: expectedExit,
        interpreter: c.interpreter,
        count: 1,
        resolvedAt: null,
        cwd: machine.dir,
        pathVar: machine.env.PATH,
      });
      expect(fact.summary).toBe(
        `\`${c.program}\` could not be started once, at ${hhmm(fact.firstSeen)} (${c.code}: ${c.words})`,
      );

      const lines = ledgerLines(machine);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        v: 1,
        event: 'not-started',
        program: c.program,
        cause: c.cause,
        exitCode: expectedExit,
      });
    });
  }
});

// KNOWN BUG, reported to the integrator: src/policy/verdict.ts (codeOf) and src/cli/dry-run.ts
// derive the exit code from the error code (ENOENT → 127, anything else → 126) instead of the
// resolution's exitCode, so a missing #! interpreter (EBADINTERP) exits 126 where bash exits 127.
// The fact and the ledger carry the right code. Drop `.fails` once the verdict uses it.
describe('the exit code of a run whose program cannot be started', () => {
  for (const c of CAUSES) {
    const test = c.verdictBug ? it.fails : it;
    test(`is the one bash gives for ${c.title}`, async () => {
      const machine = freshMachine();
      c.setUp(machine);
      const expectedExit = bashStatus(c.program, machine.env, machine.dir);
      const { result, report } = await runReport(machine, ['--', c.program]);
      expect(report.exitCode).toBe(expectedExit);
      expect(result.code).toBe(expectedExit);
    });
  }
});

describe('a program found only through a relative PATH entry', () => {
  const WARNING =
    /stage "rel-tool": `rel-tool` was found only through the relative PATH entry `tools` as \S+\/tools\/rel-tool; this depends on the current directory, so put an absolute directory on PATH/;

  function relativeMachine(): Machine {
    const machine = freshMachine();
    const tools = join(machine.dir, 'tools');
    mkdirSync(tools);
    copyFileSync(join(FIXTURES, 'facts', 'fake-poetry'), join(tools, 'rel-tool'));
    chmodSync(join(tools, 'rel-tool'), 0o755);
    machine.env.PATH = 'tools:/usr/bin:/bin';
    return machine;
  }

  it('runs it, like bash, and says why that is fragile in the report warnings', async () => {
    const machine = relativeMachine();
    expect(bashStatus('rel-tool', machine.env, machine.dir)).toBe(0);
    const { result, report } = await runReport(machine, ['--', 'rel-tool', 'x']);
    expect(result.code).toBe(0);
    expect(report.stages[0]).toMatchObject({
      status: 'ok',
      resolvedPath: join(machine.dir, 'tools', 'rel-tool'),
      hint: null,
      error: null,
    });
    expect(report.stages[0]!.stdout.text).toBe('fake-poetry ran: x\n');
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatch(WARNING);
    expect(report.facts).toEqual([]);
    expect(ledgerLines(machine)).toEqual([]);
  });

  it('prints the warning under the table', async () => {
    const machine = relativeMachine();
    const result = await runCli(['--facts', machine.ledger, '--', 'rel-tool'], {
      env: machine.env,
      cwd: machine.dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('fake-poetry ran: \n');
    const warning = result.stderr.split('\n').find((line) => line.startsWith('warning: '));
    expect(warning).toMatch(WARNING);
  });
});

describe('seed 002 in miniature: a missing program, thirteen runs, then a fix', () => {
  it('counts thirteen failures, then marks the fact resolved when the program starts', async () => {
    const machine = freshMachine();
    const pipeline = ['-c', 'poetry install | cat'];
    const times: Array<{ before: string; after: string }> = [];
    for (let run = 1; run <= 13; run++) {
      const before = new Date().toISOString();
      const { result, report } = await runReport(machine, pipeline);
      times.push({ before, after: new Date().toISOString() });
      expect(result.code).toBe(127);
      // As under bash, cat runs although poetry cannot.
      expect(report.stages.map((stage) => stage.status)).toEqual(['not-started', 'ok']);
      // Every run sees what the runs before it found, its own failure included.
      expect(report.facts.map((fact) => [fact.stage, fact.program, fact.count])).toEqual([
        [1, 'poetry', run],
      ]);
    }

    const open = await ledgerFacts(machine, false);
    expect(open).toHaveLength(1);
    const fact = open[0]!;
    expect(fact).toMatchObject({ program: 'poetry', cause: 'not-on-path', count: 13, resolvedAt: null });
    expect(fact.firstSeen >= times[0]!.before && fact.firstSeen <= times[0]!.after).toBe(true);
    expect(fact.lastSeen >= times[12]!.before && fact.lastSeen <= times[12]!.after).toBe(true);
    expect(fact.summary).toBe(
      `\`poetry\` could not be started 13 times since ${hhmm(fact.firstSeen)} (ENOENT: not on PATH)`,
    );

    // The machine is fixed: the 14th run tries poetry anyway, it starts, and the fact is resolved.
    const poetry = install(machine, 'fake-poetry', 'poetry');
    const reportFile = join(machine.dir, 'run-14.json');
    const before = new Date().toISOString();
    const fourteenth = await runCli(['--facts', machine.ledger, '--report', reportFile, ...pipeline], {
      env: machine.env,
      cwd: machine.dir,
    });
    const after = new Date().toISOString();
    expect(fourteenth.code).toBe(0);
    expect(fourteenth.stdout).toBe('fake-poetry ran: install\n');
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
    expect(report.stages.map((stage) => stage.status)).toEqual(['ok', 'ok']);
    expect(report.facts).toHaveLength(1);
    const resolved = report.facts[0]!;
    expect(resolved).toMatchObject({
      stage: 1,
      program: 'poetry',
      count: 13,
      firstSeen: fact.firstSeen,
      lastSeen: fact.lastSeen,
      resolvedPath: poetry,
    });
    expect(resolved.resolvedAt! >= before && resolved.resolvedAt! <= after).toBe(true);
    const sentence = `\`poetry\` could not be started 13 times since ${hhmm(fact.firstSeen)} (ENOENT: not on PATH); it started at ${hhmm(resolved.resolvedAt!)} (${poetry})`;
    expect(resolved.summary).toBe(sentence);
    expect(fourteenth.stderr).toContain(`   fact: ${sentence}`);

    // The ledger tells the same story: 13 sightings and the start that resolved them.
    expect(await ledgerFacts(machine, false)).toEqual([]);
    const all = await ledgerFacts(machine, true);
    expect(all).toEqual([
      {
        ...fact,
        resolvedAt: resolved.resolvedAt,
        resolvedPath: poetry,
        summary: sentence,
      },
    ]);
    const events = ledgerLines(machine).map((line) => JSON.parse(line) as { event: string });
    expect(events.map((event) => event.event)).toEqual([...Array(13).fill('not-started'), 'started']);

    // A 15th run has nothing to say and writes nothing.
    const fifteenth = await runReport(machine, pipeline);
    expect(fifteenth.report.facts).toEqual([]);
    expect(ledgerLines(machine)).toHaveLength(14);
  }, 180_000);
});

describe('a run and its ledger', () => {
  it('resolves a fact once when two stages run the same program', async () => {
    const machine = freshMachine();
    await runReport(machine, ['--', 'poetry']);
    install(machine, 'fake-poetry', 'poetry');
    const { result, report } = await runReport(machine, ['-c', 'poetry one | poetry two']);
    expect(result.code).toBe(0);
    expect(report.facts.map((fact) => [fact.stage, fact.program, fact.resolvedPath])).toEqual([
      [1, 'poetry', join(machine.bin, 'poetry')],
    ]);
    const events = ledgerLines(machine).map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(['not-started', 'started']);
  });

  it('turns a ledger it cannot use into warnings, never into a different outcome', async () => {
    const machine = freshMachine();
    // A directory where the ledger file should be: it can be neither read nor appended to.
    mkdirSync(machine.ledger, { recursive: true });
    const { result, report } = await runReport(machine, ['--', 'poetry']);
    expect(result.code).toBe(127);
    expect(report.stages[0]!.status).toBe('not-started');
    expect(report.facts).toEqual([]);
    expect(report.warnings).toEqual([
      expect.stringMatching(/^facts ledger \S+: cannot read \(EISDIR: .*\); known facts are not shown$/),
      expect.stringMatching(
        /^facts ledger \S+: cannot append \(EISDIR: .*\); this fact was not recorded, fix the path or pass --no-facts$/,
      ),
    ]);
  });
});

describe('twenty safe-run processes sharing one ledger', () => {
  it('lands every record whole: none torn, none lost', async () => {
    const machine = freshMachine();
    const WRITERS = 20;
    // A long PATH makes every record over 3 KB (still under the 3800-byte limit, so not shortened):
    // a torn write would show.
    const padding = Array.from({ length: 68 }, (_, i) => `/nonexistent/safe-run-facts-test/dir-${i}`);
    machine.env.PATH = [...padding, '/usr/bin', '/bin'].join(':');
    // All twenty start at once and append during preflight (no stage can start, so stdin is never
    // opened and nothing else can line them up): their appends overlap as the kernel schedules them.
    const pids: number[] = [];
    const runs = Array.from({ length: WRITERS }, (_, writer) =>
      runCli(['--json', '--facts', machine.ledger, '-c', `shared-missing | missing-${writer}`], {
        env: machine.env,
        cwd: machine.dir,
        deadlineMs: 120_000,
        onStart: (pid) => pids.push(pid),
      }),
    );
    const results = await Promise.all(runs);
    expect(results.filter((result) => result.code !== 127).map((result) => result.stderr)).toEqual([]);

    const lines = ledgerLines(machine);
    expect(lines).toHaveLength(2 * WRITERS);
    const records = lines.map(
      (line) => JSON.parse(line) as { event: string; program: string; pid: number; truncated?: true },
    );
    expect(Math.min(...lines.map((line) => Buffer.byteLength(line)))).toBeGreaterThan(3000);
    expect(records.every((record) => record.event === 'not-started' && !record.truncated)).toBe(true);
    expect(new Set(records.map((record) => record.pid))).toEqual(new Set(pids));
    const programs = records.map((record) => record.program).sort();
    const expected = ['shared-missing', ...Array.from({ length: WRITERS }, (_, w) => `missing-${w}`)];
    expect(new Set(programs)).toEqual(new Set(expected));

    const facts = await ledgerFacts(machine);
    const counts = Object.fromEntries(facts.map((fact) => [fact.program, fact.count]));
    expect(counts).toEqual(
      Object.fromEntries(expected.map((program) => [program, program === 'shared-missing' ? WRITERS : 1])),
    );
    const warnings = JSON.parse((await factsCommand(machine, ['--json'])).stdout).warnings;
    expect(warnings).toEqual([]);
  }, 180_000);
});

describe('safe-run facts', () => {
  // Two open facts and one resolved, all made by real runs.
  async function threeFacts(): Promise<Machine> {
    const machine = freshMachine();
    install(machine, 'missing-python-tool', 'py-tool');
    await runReport(machine, ['-c', 'poetry | py-tool']);
    await runReport(machine, ['--', 'poetry']);
    await runReport(machine, ['--', 'yarn']);
    install(machine, 'fake-poetry', 'yarn');
    await runReport(machine, ['--', 'yarn']);
    return machine;
  }

  it('lists the open facts, each as a sentence and the message of its latest sighting', async () => {
    const machine = await threeFacts();
    const facts = await ledgerFacts(machine);
    const result = await factsCommand(machine, []);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const since = hhmm(facts[0]!.firstSeen);
    expect(result.stdout).toBe(
      [
        `\`poetry\` could not be started 2 times since ${since} (ENOENT: not on PATH)`,
        '  `poetry` was not found on PATH (searched 3 directories); install it or fix PATH',
        `\`py-tool\` could not be started once, at ${hhmm(facts[1]!.firstSeen)} (EBADINTERP: interpreter /opt/missing/python missing)`,
        '  py-tool: its interpreter /opt/missing/python (from the #! line) does not exist; install it or fix the #! line',
        '',
      ].join('\n'),
    );
  });

  it('includes resolved facts with --all', async () => {
    const machine = await threeFacts();
    const result = await factsCommand(machine, ['--all']);
    expect(result.code).toBe(0);
    const sentences = result.stdout.split('\n').filter((line) => line.startsWith('`'));
    expect(sentences).toHaveLength(3);
    expect(sentences[2]).toMatch(
      new RegExp(
        `^\`yarn\` could not be started once, at \\d\\d:\\d\\d \\(ENOENT: not on PATH\\); it started at \\d\\d:\\d\\d \\(${machine.bin}/yarn\\)$`,
      ),
    );
  });

  it('prints the ledger path, the facts with their sentences, and warnings with --json', async () => {
    const machine = await threeFacts();
    const result = await factsCommand(machine, ['--json']);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { ledger: string; facts: ReportFact[]; warnings: string[] };
    expect(document.ledger).toBe(machine.ledger);
    expect(document.warnings).toEqual([]);
    expect(document.facts.map((fact) => [fact.program, fact.count, fact.resolvedAt])).toEqual([
      ['poetry', 2, null],
      ['py-tool', 1, null],
    ]);
    expect(Object.keys(document.facts[0]!).sort()).toEqual(
      [
        'program',
        'cwd',
        'found',
        'code',
        'cause',
        'exitCode',
        'message',
        'interpreter',
        'pathVar',
        'firstSeen',
        'lastSeen',
        'count',
        'resolvedAt',
        'resolvedPath',
        'summary',
      ].sort(),
    );
  });

  it('forgets every fact with --clear, and later runs start a new story', async () => {
    const machine = await threeFacts();
    const result = await factsCommand(machine, ['--clear']);
    expect(result).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `safe-run: forgot every fact in ${machine.ledger}\n`,
    });
    expect(statSync(machine.ledger).size).toBe(0);
    expect(await ledgerFacts(machine)).toEqual([]);
    expect((await factsCommand(machine, [])).stdout).toBe(`no open facts in ${machine.ledger}\n`);
    expect((await factsCommand(machine, ['--all'])).stdout).toBe(`no facts in ${machine.ledger}\n`);
    const { report } = await runReport(machine, ['--', 'poetry']);
    expect(report.facts.map((fact) => [fact.program, fact.count])).toEqual([['poetry', 1]]);
  });

  it('clears a ledger that does not exist without complaint', async () => {
    const machine = freshMachine();
    const result = await factsCommand(machine, ['--clear']);
    expect(result.code).toBe(0);
    expect(existsSync(machine.ledger)).toBe(false);
  });

  it('refuses an unknown option with exit 125 and says where help is', async () => {
    const result = await factsCommand(freshMachine(), ['--bogus']);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe("safe-run: facts: unknown option '--bogus' (see safe-run facts --help)\n");
  });

  it('finds the ledger through $SAFE_RUN_FACTS, then $XDG_STATE_HOME, for runs and for itself', async () => {
    const machine = freshMachine();
    const named = join(machine.dir, 'named.jsonl');
    const viaVariable = { env: { ...machine.env, SAFE_RUN_FACTS: named }, cwd: machine.dir };
    expect((await runCli(['--json', '--', 'poetry'], viaVariable)).code).toBe(127);
    expect(ledgerLines({ ...machine, ledger: named })).toHaveLength(1);
    const listed = await runCli(['facts', '--json'], viaVariable);
    expect(JSON.parse(listed.stdout)).toMatchObject({ ledger: named, facts: [{ program: 'poetry' }] });

    const state = join(machine.dir, 'state-home');
    const viaXdg = { env: { ...machine.env, XDG_STATE_HOME: state }, cwd: machine.dir };
    expect((await runCli(['--json', '--', 'yarn'], viaXdg)).code).toBe(127);
    const ledger = join(state, 'safe-run', 'facts.jsonl');
    expect(ledgerLines({ ...machine, ledger })).toHaveLength(1);
    expect(JSON.parse((await runCli(['facts', '--json'], viaXdg)).stdout).ledger).toBe(ledger);
  });
});

describe('--no-facts', () => {
  it('writes nothing, not even a directory, when a program cannot start', async () => {
    const machine = freshMachine();
    const env = { ...machine.env, SAFE_RUN_FACTS: machine.ledger };
    const result = await runCli(['--json', '--no-facts', '--', 'poetry'], { env, cwd: machine.dir });
    expect(result.code).toBe(127);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.stages[0]!.status).toBe('not-started');
    expect(report.stages[0]!.hint).toBe(HINT);
    expect(report.facts).toEqual([]);
    expect(report.settings.facts).toBeNull();
    expect(existsSync(join(machine.dir, 'state'))).toBe(false);
  });

  it('neither shows known facts nor resolves them when the program starts', async () => {
    const machine = freshMachine();
    await runReport(machine, ['--', 'poetry']);
    const before = readFileSync(machine.ledger);
    const env = { ...machine.env, SAFE_RUN_FACTS: machine.ledger };
    const failing = await runCli(['--json', '--no-facts', '--', 'poetry'], { env, cwd: machine.dir });
    expect((JSON.parse(failing.stdout) as Report).facts).toEqual([]);
    install(machine, 'fake-poetry', 'poetry');
    const starting = await runCli(['--json', '--no-facts', '--', 'poetry'], { env, cwd: machine.dir });
    expect(starting.code).toBe(0);
    expect((JSON.parse(starting.stdout) as Report).facts).toEqual([]);
    expect(readFileSync(machine.ledger).equals(before)).toBe(true);
  });
});

describe('the table', () => {
  it('shows the fact under the stage it is about, after the error and the hint', async () => {
    const machine = freshMachine();
    await runReport(machine, ['--', 'poetry']);
    const result = await runCli(['--facts', machine.ledger, '-c', 'poetry install | cat'], {
      env: machine.env,
      cwd: machine.dir,
    });
    expect(result.code).toBe(127);
    const lines = result.stderr.split('\n');
    const row = lines.findIndex((line) => /^1\s+poetry\s+not-started/.test(line));
    expect(row).toBeGreaterThan(0);
    const facts = await ledgerFacts(machine);
    expect(lines.slice(row + 1, row + 5)).toEqual([
      '   ENOENT: `poetry` was not found on PATH (searched 3 directories); install it or fix PATH',
      `   hint: ${HINT}`,
      `   fact: \`poetry\` could not be started 2 times since ${hhmm(facts[0]!.firstSeen)} (ENOENT: not on PATH)`,
      expect.stringMatching(/^2\s+cat\s+ok/),
    ]);
  });
});
