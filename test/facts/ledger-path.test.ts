import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultLedgerPath } from '../../src/facts/ledger.js';
import { commandLineLedger } from '../../src/facts/ledger-path.js';

describe('defaultLedgerPath', () => {
  it('uses $SAFE_RUN_FACTS first', () => {
    const env = { SAFE_RUN_FACTS: '/srv/fleet/facts.jsonl', XDG_STATE_HOME: '/x', HOME: '/home/u' };
    expect(defaultLedgerPath(env)).toBe('/srv/fleet/facts.jsonl');
  });

  it('uses $XDG_STATE_HOME/safe-run/facts.jsonl next', () => {
    expect(defaultLedgerPath({ XDG_STATE_HOME: '/state', HOME: '/home/u' })).toBe(
      '/state/safe-run/facts.jsonl',
    );
  });

  it('falls back to ~/.local/state/safe-run/facts.jsonl', () => {
    expect(defaultLedgerPath({ HOME: '/home/u' })).toBe('/home/u/.local/state/safe-run/facts.jsonl');
  });

  it('ignores a relative $XDG_STATE_HOME and an empty $SAFE_RUN_FACTS, as the XDG spec asks', () => {
    const env = { SAFE_RUN_FACTS: '', XDG_STATE_HOME: 'state', HOME: '/home/u' };
    expect(defaultLedgerPath(env)).toBe('/home/u/.local/state/safe-run/facts.jsonl');
  });

  it('makes a relative $SAFE_RUN_FACTS absolute', () => {
    expect(defaultLedgerPath({ SAFE_RUN_FACTS: 'facts.jsonl' })).toBe(join(process.cwd(), 'facts.jsonl'));
  });
});

describe('commandLineLedger', () => {
  it('is none when ~/.local would be inside the working directory (HOME is the project), even through a link', () => {
    const home = fs.mkdtempSync(join(os.tmpdir(), 'ledger-home-'));
    const link = `${home}-link`;
    fs.symlinkSync(home, link);
    try {
      expect(commandLineLedger({ HOME: home }, home)).toBeNull();
      expect(commandLineLedger({ HOME: link }, home)).toBeNull();
      expect(commandLineLedger({ HOME: home }, join(home, '.local'))).toBeNull();
      // A directory below HOME, or elsewhere, keeps the ledger in HOME.
      fs.mkdirSync(join(home, 'project'));
      const ledger = join(home, '.local', 'state', 'safe-run', 'facts.jsonl');
      expect(commandLineLedger({ HOME: home }, join(home, 'project'))).toBe(ledger);
      expect(commandLineLedger({ HOME: home }, process.cwd())).toBe(ledger);
      // Run from / (a container's working directory), HOME is inside it, and the ledger stays.
      expect(commandLineLedger({ HOME: home }, '/')).toBe(ledger);
      // Named by $SAFE_RUN_FACTS or $XDG_STATE_HOME, it is where it was asked to be.
      const named = join(home, 'facts.jsonl');
      expect(commandLineLedger({ HOME: home, SAFE_RUN_FACTS: named }, home)).toBe(named);
      expect(commandLineLedger({ HOME: home, XDG_STATE_HOME: home }, home)).toBe(
        join(home, 'safe-run', 'facts.jsonl'),
      );
    } finally {
      fs.rmSync(link);
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
