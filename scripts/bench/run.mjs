// npm run bench [-- --quick]: safe-run against the plain shell, same machine, same run.
// See docs/benchmarks.md for what each section measures and how to read the table.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { dataSection, pipeSection, rssSection, startupSection, withBin } from './cases.mjs';
import { ciJobCost, ciSection } from './ci-cases.mjs';
import {
  furtherStepCost,
  procsSection,
  reportSize,
  stagesSection,
  textRefusal,
  textSection,
} from './cost-cases.mjs';
import { renderGoals } from './goals.mjs';
import { inspectSection } from './inspect-cases.mjs';
import { limitsSection } from './limit-cases.mjs';
import { benchEnvironment, describeBuild, describeMachine, snapshotBuild } from './machine.mjs';
import { hasGnuTime } from './measure.mjs';
import { parseOptions, USAGE, UsageError } from './options.mjs';
import { runSection } from './rounds.mjs';
import { summarize } from './stats.mjs';
import { renderFailures, renderHeader, renderTable } from './table.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const log = (line) => process.stderr.write(`${line}\n`);

function plannedSections(options, tmpDir) {
  const all = {
    startup: () => ({ section: startupSection(), rounds: options.startupRuns, warmup: true, bareWall: true }),
    pipe: () => ({ section: pipeSection(options.pipeSize), rounds: options.runs }),
    data: () => ({ section: dataSection(options.dataSize), rounds: options.runs }),
    rss: () => ({ section: rssSection(options.rssSizes), rounds: options.rssRuns, warmup: true }),
    procs: () => ({
      section: procsSection(options.idleProcesses),
      rounds: options.procsRuns,
      bareWall: true,
    }),
    stages: () => ({ section: stagesSection(), rounds: options.startupRuns, warmup: true }),
    text: () => ({ section: textSection(), rounds: options.startupRuns, warmup: true, refusal: textRefusal }),
    inspect: () => ({ section: inspectSection(), rounds: options.startupRuns, warmup: true, bareWall: true }),
    limits: () => ({
      section: limitsSection(),
      rounds: Math.max(3, Math.min(options.runs, 8)),
      bareWall: true,
    }),
    ci: () => ({ section: ciSection(tmpDir), rounds: options.runs, warmup: true }),
  };
  // mcp is not a section of cases: mcp-calls.mjs measures it after them (agentCalls below).
  return options.only.filter((id) => id !== 'mcp').map((id) => all[id]());
}

// The safe-run to measure and the line describing it: --bin as given, else a snapshot of this
// checkout, taken again (up to 5 times, 2 s apart) if a concurrent build got in the way.
async function chooseBuild(options, tmpDir) {
  if (options.bin) {
    const bin = path.resolve(options.bin);
    return { bin, build: describeBuild(bin, repoRoot, false) };
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      const bin = snapshotBuild(repoRoot, tmpDir);
      return { bin, build: describeBuild(bin, repoRoot, true) };
    } catch (error) {
      if (attempt === 5) throw error;
      log(`snapshot of bin/ and dist/ failed (${error.message.split('\n')[0]}); trying again`);
      await sleep(2000);
    }
  }
}

async function benchmark(options, tmpDir) {
  const { bin, build } = await chooseBuild(options, tmpDir);
  const machine = describeMachine();
  machine.build = build;
  const useTime = hasGnuTime();
  machine.usageSource = useTime
    ? 'GNU time (wait4 rusage: the command and all its children; user+sys)'
    : 'VmHWM of the command polled every 2 ms (GNU time not found; CPU not measured)';
  const baseEnv = benchEnvironment(tmpDir);
  log(`measuring ${machine.build}; load ${machine.loadStart.map((l) => l.toFixed(2)).join(' ')}`);

  const binary = path.join(path.dirname(bin), '..', 'dist', 'safe-run');
  const hasBinary = fs.existsSync(binary);
  if (!hasBinary) log('no dist/safe-run (npm run build:binary): the binary rows are left out');
  const done = [];
  const notes = [];
  for (const plan of plannedSections(options, tmpDir)) {
    const refused = plan.refusal?.(bin, repoRoot);
    if (refused) {
      notes.push(`- ${plan.section.title}: ${refused}`);
      log(`${plan.section.title}: ${refused}`);
      continue;
    }
    const section = withBin(plan.section, bin, hasBinary ? binary : null);
    log(`${section.title}: ${plan.rounds} rounds of ${section.cases.length} cases`);
    const results = await runSection(section, {
      rounds: plan.rounds,
      warmup: plan.warmup === true,
      bareWall: plan.bareWall === true,
      useTime,
      tmpDir,
      baseEnv,
      cwd: repoRoot,
      log,
    });
    const byId = new Map(results.map((r) => [r.case.id, r]));
    done.push({ section, results, summaries: results.map((r) => summarize(r, byId)) });
  }
  const textRan = done.some(({ section }) => section.id === 'text');
  if (textRan) log('the --json report of a 10,000-iteration loop');
  const size = textRan ? reportSize(bin, baseEnv, repoRoot) : null;
  const mcp = options.only.includes('mcp') ? agentCalls(options, tmpDir) : null;
  machine.loadEnd = os.loadavg();

  const legend = done.map(({ section }) => `- ${section.id}: ${section.title}`).join('\n');
  const where = options.bin ? bin : path.join(repoRoot, 'bin', 'safe-run');
  const binNote = `\n"safe-run" above is \`${where}\`, run with only the variables shown set besides PATH and HOME.\n`;
  process.stdout.write(`${renderHeader(machine, options)}${legend}\n\n${renderTable(done)}`);
  const stepCost = furtherStepCost(done);
  if (stepCost) process.stdout.write(`\n${stepCost}`);
  const ciCost = ciJobCost(done);
  if (ciCost) process.stdout.write(`\n${ciCost}`);
  if (notes.length > 0) process.stdout.write(`\nNot measured:\n${notes.join('\n')}\n`);
  if (mcp) process.stdout.write(`\n${mcp.text}`);
  process.stdout.write(`\n${renderGoals(done, options, { reportSize: size, mcp: mcp?.samples ?? null })}`);
  const failures = renderFailures(done);
  if (failures) process.stdout.write(`${failures}${binNote}`);
  if (options.raw) {
    const raw = done.map(({ section, results, summaries }) => ({
      section: section.id,
      title: section.title,
      cases: results.map((r, i) => ({
        ...r.case,
        check: undefined,
        summary: summaries[i],
        samples: r.samples,
      })),
    }));
    fs.writeFileSync(options.raw, `${JSON.stringify({ machine, options, sections: raw }, null, 2)}\n`);
  }
  return failures ? 1 : 0;
}

// Agent calls over MCP against bash -c and a persistent bash, in this same run (docs/benchmarks.md):
// the table it prints, and its samples for the goals.
function agentCalls(options, tmpDir) {
  const script = path.join(repoRoot, 'scripts', 'bench', 'mcp-calls.mjs');
  const rounds = String(Math.max(5, Math.min(options.runs, 20)));
  const json = path.join(tmpDir, 'mcp.json');
  log(`agent calls over MCP: ${rounds} rounds`);
  const text = execFileSync(process.execPath, [script, '--rounds', rounds, '--json', json], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { text, samples: JSON.parse(fs.readFileSync(json, 'utf8')) };
}

async function main(args) {
  let options;
  try {
    options = parseOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log(`bench: ${error.message}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-run-bench-'));
  try {
    return await benchmark(options, tmpDir);
  } catch (error) {
    log(`bench: ${error.message}`);
    return 1;
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
