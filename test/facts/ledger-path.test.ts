import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultLedgerPath } from '../../src/facts/ledger.js';

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
