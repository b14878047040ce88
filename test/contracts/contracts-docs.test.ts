import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EXIT_CONTRACTS } from '../../src/contracts/exit-contracts.js';

const docs = readFileSync(join(import.meta.dirname, '../../docs/exit-codes.md'), 'utf8');

describe('docs/exit-codes.md', () => {
  test('lists every code of every contract with its meaning', () => {
    for (const contract of EXIT_CONTRACTS) {
      const programs = contract.programs.map((program) => `\`${program}\``).join(', ');
      for (const [code, meaning] of Object.entries(contract.codes)) {
        const row = docs
          .split('\n')
          .find(
            (line) =>
              line.startsWith(`| ${programs} |`) &&
              line.includes(` | ${code} | ${meaning.meaning.replace(/\|/g, '\\|')}`),
          );
        expect(row, `${programs} ${code}`).toBeDefined();
        expect(row!.includes('**not an error**'), `${programs} ${code} benign`).toBe(Boolean(meaning.benign));
      }
    }
  });
});
