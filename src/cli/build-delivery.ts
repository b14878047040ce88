import fs from 'node:fs';
import path from 'node:path';
import { RequestError } from '../errors.js';
import type { SpecDelivery } from '../inputs/assemble-plan.js';
import { parseCheckCommand } from '../output/check-command.js';
import type { DeliveryPlan } from '../output/deliver.js';
import { parseExpectation } from '../output/expectations.js';
import type { Plan } from '../types.js';
import type { CliOptions } from './options.js';

// --output and its checks, from the flags and the spec file: FILE from the flag if given, else the
// spec's; the flags' checks are added to the spec's. Every problem is a 125 before anything starts.
export function buildDelivery(
  options: CliOptions,
  spec: SpecDelivery | undefined,
  plan: Plan,
  env: NodeJS.ProcessEnv,
): DeliveryPlan | null {
  const file = options.output ?? spec?.output;
  const expectTexts = [...(spec?.expect ?? []), ...(options.expect ?? [])];
  const commandTexts = [...(spec?.expectCmd ?? []), ...(options.expectCmd ?? [])];
  const keepPartial = options.keepPartial ?? spec?.keepPartial ?? false;
  if (file === undefined) {
    const stray =
      expectTexts.length > 0
        ? '--expect'
        : commandTexts.length > 0
          ? '--expect-cmd'
          : keepPartial
            ? '--keep-partial'
            : null;
    if (stray) {
      throw new RequestError('usage.output', `${stray} works on a staged output: add --output FILE`);
    }
    return null;
  }
  checkOutputFile(file, plan);
  return {
    file,
    keepPartial,
    expect: expectTexts.map((text) => parseExpectation(text, 'expect')),
    commands: commandTexts.map((text) => parseCheckCommand(text, env, 'expect-cmd')),
  };
}

function checkOutputFile(file: string, plan: Plan): void {
  if (file === '') throw new RequestError('usage.output', '--output "": name a file');
  if (plan.settings.liveStdout === 'capped') {
    throw new RequestError(
      'usage.output',
      '--output takes the product whole; drop --live-stdout capped (or live-stdout in the spec)',
    );
  }
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) {
    throw new RequestError(
      'usage.output',
      `--output ${file}: not a regular file; the product is staged beside FILE and renamed over it, which needs a regular file (or none yet)`,
    );
  }
  const dir = path.dirname(stat ? fs.realpathSync(file) : path.resolve(file));
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw new RequestError(
      'usage.output',
      `--output ${file}: directory ${dir} does not exist or is not writable`,
    );
  }
}
