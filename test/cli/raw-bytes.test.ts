import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-raw-bytes-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// Runs a bash script (bytes that are not UTF-8 written as $'\xNN') with SR set to the real CLI;
// stdout as bytes. The deadline kills it if it hangs.
function bash(
  script: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '-c', script], {
      env: {
        ...process.env,
        SR: `"${process.execPath}" "${BIN}" --no-facts`,
        SAFE_RUN_FACTS: undefined,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: Buffer.concat(out), err });
    });
  });
}

describe('bytes that are not UTF-8', () => {
  it('in an argument: refused with 125, naming the word, before anything starts', async () => {
    const { code, out, err } = await bash(`eval "$SR" -q -- printf %s $'\\xff\\xfe'`);
    expect(code).toBe(125);
    expect(out.length).toBe(0);
    expect(err).toBe(
      `safe-run: word 6 after safe-run, "\\xff\\xfe", is not valid UTF-8 and would reach the stage altered; pass it inside a shell's text instead: safe-run -- bash -c 'exec PROGRAM $'\\''\\xNN...'\\'''\n`,
    );
  });

  it('in a file name: refused, and the advice given reads the file', async () => {
    fs.mkdirSync(path.join(scratch, 'files'), { recursive: true });
    await bash(`printf 'inside' > '${scratch}/files/caf'$'\\xe9''.txt'`);
    const refused = await bash(`eval "$SR" -q -- cat '${scratch}/files/caf'$'\\xe9''.txt'`);
    expect(refused.code).toBe(125);
    expect(refused.err).toContain('caf\\xe9.txt", is not valid UTF-8 and would reach the stage altered');
    const direct = await bash(
      `"${process.execPath}" "${BIN}" --no-facts -q -- bash -c 'exec cat $'\\''${scratch}/files/caf\\xe9.txt'\\'''`,
    );
    expect(direct.code).toBe(0);
    expect(direct.out.toString()).toBe('inside');
  });

  it('in an environment value: reaches the stage byte for byte, in the same pid, group and session', async () => {
    const { code, out } = await bash(
      `X=$'caf\\xe9' eval "$SR" -q -- sh -c "'printf %s \\"\\$X\\"; echo; ps -o pid=,pgid=,sid= -p \\$\\$'"`,
    );
    expect(code).toBe(0);
    const [value, ids] = out.toString('latin1').split('\n');
    expect(Buffer.from(value!, 'latin1').toString('hex')).toBe('636166e9');
    const [pid, pgid, sid] = ids!.trim().split(/\s+/);
    expect(pgid).toBe(pid);
    expect(sid).toBe(pid);
  });

  it('in an environment value: every other variable reaches the stage as it would without the trampoline', async () => {
    const dump = (prefix: string) => bash(`${prefix} eval "$SR" -q -- env -0`);
    const plain = (await dump('')).out.toString('latin1').split('\0');
    const through = (await dump(`X=$'caf\\xe9'`)).out.toString('latin1').split('\0');
    const withoutMarker = (entries: string[]) => entries.filter((entry) => !entry.startsWith('SAFE_RUN_ID='));
    expect(
      withoutMarker(through)
        .filter((entry) => entry !== 'X=caf\xe9')
        .sort(),
    ).toEqual(withoutMarker(plain).sort());
    expect(through).toContain('X=caf\xe9');
  });

  it('in the working directory: programs are found from it, and a missing one is no machine fact', async () => {
    const ledger = path.join(scratch, 'facts.jsonl');
    const sr = `"${process.execPath}" "${BIN}" -q --facts '${ledger}'`;
    const setup = `mkdir -p '${scratch}/d'$'\\xe9' && cd '${scratch}/d'$'\\xe9' && printf '#!/bin/sh\\necho local\\n' > p.sh && chmod +x p.sh`;
    const found = await bash(`${setup} && ${sr} -- ./p.sh`);
    expect(found.code).toBe(0);
    expect(found.out.toString()).toBe('local\n');
    const missing = await bash(`cd '${scratch}/d'$'\\xe9' && ${sr} -- ./missing`);
    expect(missing.code).toBe(127);
    expect(fs.existsSync(ledger) ? fs.readFileSync(ledger, 'utf8') : '').toBe('');
  });
});
