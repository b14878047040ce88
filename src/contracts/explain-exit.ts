import { type CodeMeaning, EXIT_CONTRACTS, type ExitContract } from './exit-contracts.js';

interface Explanation extends CodeMeaning {
  // The program whose contract it is (grep, curl, pytest...).
  program: string;
  code: number;
}

// The tool a command runs: its basename, or the module/package behind `python -m X` and `npx X`.
export function toolOf(argv: readonly string[]): string {
  const base = (argv[0] ?? '').split('/').pop() ?? '';
  if (/^python[0-9.]*$/.test(base) && argv[1] === '-m' && argv[2]) return argv[2];
  if (base === 'npx' || base === 'bunx') return argv.slice(1).find((arg) => !arg.startsWith('-')) ?? base;
  return base;
}

function argsMatch(contract: ExitContract, args: readonly string[]): boolean {
  if (!contract.whenArgs) return true;
  return contract.whenArgs.some((words) =>
    words.every((word) => word.split('|').some((alternative) => args.includes(alternative))),
  );
}

// The contract that applies to this command, or null when safe-run knows none.
export function contractFor(argv: readonly string[]): { program: string; contract: ExitContract } | null {
  const program = toolOf(argv);
  const args = argv.slice(1);
  const contract = EXIT_CONTRACTS.find((entry) => entry.programs.includes(program) && argsMatch(entry, args));
  return contract ? { program, contract } : null;
}

// What an exit code means for this command, or null when its contract does not say.
export function explainExit(argv: readonly string[], code: number): Explanation | null {
  const found = contractFor(argv);
  const meaning = found?.contract.codes[code];
  return found && meaning ? { ...meaning, program: found.program, code } : null;
}

// The codes `contract: lenient` accepts for this command besides 0, or null when no contract is known.
export function lenientCodes(argv: readonly string[]): number[] | null {
  const found = contractFor(argv);
  if (!found) return null;
  return Object.entries(found.contract.codes)
    .filter(([, meaning]) => meaning.benign)
    .map(([code]) => Number(code));
}

// The programs with a contract, for messages and docs.
export function knownTools(): string[] {
  return [...new Set(EXIT_CONTRACTS.flatMap((entry) => entry.programs))];
}
