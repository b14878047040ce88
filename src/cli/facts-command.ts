import type { CliIO } from './main.js';

export async function factsCommand(_args: string[], io: CliIO): Promise<number> {
  io.stderr.write('safe-run facts: not yet wired\n');
  return 125;
}
