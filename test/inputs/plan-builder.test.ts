import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/cli/build-plan.js';
import { parseCli } from '../../src/cli/options.js';
import { RequestError } from '../../src/errors.js';
import { planFromArgv, planFromInline } from '../../src/plan.js';

function refusal(call: () => unknown): RequestError {
  try {
    call();
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error('expected a RequestError');
}

function cliPlan(args: string[]) {
  return buildPlan(parseCli(args, '0').options, null, {});
}

describe('one plan builder for the library and the CLI', () => {
  it('refuses ok-codes for a stage that does not exist, in the same words', () => {
    const fromLibrary = refusal(() => planFromInline('printf x | grep x', { okCodes: { grp: [0, 1] } }));
    const fromCli = refusal(() =>
      cliPlan(['--no-facts', '--ok-codes', 'grp=0,1', '-c', 'printf x | grep x']),
    );
    expect(fromLibrary.code).toBe('usage.ok-codes');
    expect(fromLibrary.message).toBe(fromCli.message);
    expect(fromLibrary.message).toBe('--ok-codes grp=0,1: no stage "grp" (stages: 1=printf, 2=grep)');
    expect(refusal(() => planFromArgv(['true'], { okCodes: { 2: [0] } })).code).toBe('usage.ok-codes');
  });

  it('refuses codes that are not exit codes from the library too', () => {
    expect(refusal(() => planFromArgv(['true'], { okCodes: { 1: [256] } })).message).toBe(
      '--ok-codes 1=256: 256 is not an exit code (0-255)',
    );
  });

  it('gives the same plan for the same request', () => {
    const fromLibrary = planFromInline('grep x | wc -l', { okCodes: { grep: [0, 1] }, timeoutMs: 5000 });
    const fromCli = cliPlan([
      '--no-facts',
      '--ok-codes',
      'grep=0,1',
      '--timeout',
      '5',
      '-c',
      'grep x | wc -l',
    ]);
    expect(fromLibrary).toEqual(fromCli);
  });

  it('treats a time limit of 0 as no limit, from either front end', () => {
    expect(planFromArgv(['true'], { timeoutMs: 0 }).settings.timeoutMs).toBeNull();
    expect(
      cliPlan(['--no-facts', '--timeout', '0', '--idle-timeout', '0', '--', 'true']).settings,
    ).toMatchObject({
      timeoutMs: null,
      idleTimeoutMs: null,
    });
  });
});
