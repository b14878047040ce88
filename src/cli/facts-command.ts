import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { maskText, secretValuesFromEnv } from '../capture/mask.js';
import { maskFact } from '../engine/report/mask-report.js';
import { RequestError } from '../errors.js';
import { clearFacts, defaultLedgerPath, describeFact, readLedger } from '../facts/ledger.js';
import type { CliIO } from './cli-io.js';
import { requestErrorFrom } from './commander-error.js';

interface FactsOptions {
  all?: boolean;
  json?: boolean;
  clear?: boolean;
  facts?: string;
}

function parse(args: string[], io: CliIO): FactsOptions | null {
  let help: string | null = null;
  let message = '';
  const command = new Command('safe-run facts')
    .description('Programs this machine could not start, as recorded by every safe-run run on it.')
    .option('--all', 'include facts that were resolved (the program started again)')
    .option('--json', 'print the facts as JSON')
    .option('--clear', 'forget every fact')
    .option('--facts <file>', 'the ledger (default: $SAFE_RUN_FACTS or ~/.local/state/safe-run/facts.jsonl)')
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => {
        help = (help ?? '') + text;
      },
      writeErr: (text) => {
        message += text;
      },
    });
  try {
    command.parse(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.helpDisplayed') {
      io.stdout.write(help ?? '');
      return null;
    }
    if (error instanceof CommanderError) {
      throw requestErrorFrom(error, message, 'safe-run facts --help', 'facts: ');
    }
    throw error;
  }
  return command.opts() as FactsOptions;
}

// `safe-run facts`: what is known about programs that could not start on this machine.
export function factsCommand(args: string[], io: CliIO): number {
  const options = parse(args, io);
  if (options === null) return 0;
  const ledger = options.facts ? path.resolve(options.facts) : defaultLedgerPath(io.env);
  if (options.clear) {
    const problem = clearFacts(ledger);
    if (problem) throw new RequestError('facts.clear', `facts --clear: ${problem}`);
    io.stderr.write(`safe-run: forgot every fact in ${maskText(ledger, secretValuesFromEnv(io.env, []))}\n`);
    return 0;
  }
  const read = readLedger(ledger);
  // Lines written before the ledger was masked, or by a run that had other secrets: whatever looks
  // secret in this environment is masked in what is shown.
  const secrets = secretValuesFromEnv(io.env, []);
  const m = (text: string) => maskText(text, secrets);
  const n = (text: string | null) => (text === null ? null : m(text));
  const facts = read.facts.map((fact) => maskFact(fact, m, n));
  const warnings = read.warnings.map(m);
  const shown = options.all ? facts : facts.filter((fact) => fact.resolvedAt === null);
  if (options.json) {
    const document = {
      ledger: m(ledger),
      facts: shown.map((fact) => ({ ...fact, summary: describeFact(fact) })),
      warnings,
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  for (const warning of warnings) io.stderr.write(`safe-run: warning: ${warning}\n`);
  if (shown.length === 0) {
    io.stdout.write(`no ${options.all ? '' : 'open '}facts in ${m(ledger)}\n`);
    return 0;
  }
  for (const fact of shown) {
    io.stdout.write(`${describeFact(fact)}\n`);
    io.stdout.write(`  ${fact.message}\n`);
  }
  return 0;
}
