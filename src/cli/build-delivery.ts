import fs from 'node:fs';
import path from 'node:path';
import { RequestError } from '../errors.js';
import type { SpecDelivery } from '../inputs/assemble-plan.js';
import { statOrNone } from '../inputs/check-paths.js';
import { parseExpectation } from '../inputs/read-expectation.js';
import { parseCheckCommand } from '../output/check-command.js';
import type { DeliveryPlan } from '../output/deliver.js';
import { type FinalRedirect, findFinalRedirect } from '../output/final-redirect.js';
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
  const redirect = options.atomicRedirects ? finalRedirectOf(options, plan) : null;
  if (redirect && options.output !== undefined) {
    throw new RequestError(
      'usage.output',
      '--atomic-redirects and --output both name the product: give one (--output when the text does not redirect its stdout)',
    );
  }
  const file = redirect?.file ?? options.output ?? spec?.output;
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
      throw new RequestError(
        'usage.output',
        `${stray} works on a staged output: add --output FILE (or --atomic-redirects for -c text ending in > FILE)`,
      );
    }
    return null;
  }
  checkOutputFile(file, plan, redirect);
  return {
    file,
    redirect,
    keepPartial,
    expect: expectTexts.map((text) => parseExpectation(text, 'expect')),
    commands: commandTexts.map((text) => parseCheckCommand(text, env, 'expect-cmd')),
  };
}

// --atomic-redirects: the text's final `> FILE`, or a 125 that says why there is none to stage.
function finalRedirectOf(options: CliOptions, plan: Plan): FinalRedirect {
  const refuse = (why: string): never => {
    throw new RequestError('usage.atomic-redirects', `--atomic-redirects: ${why}`);
  };
  if (options.command === undefined)
    refuse('it stages a redirection of -c text; for a command or a spec, use --output FILE');
  if (plan.fallback) {
    refuse(
      `the text runs under --fallback bash (${plan.fallback.construct} at column ${plan.fallback.column}), whose redirections safe-run does not open; drop one of the two`,
    );
  }
  const result = findFinalRedirect(plan.shell!.script, plan.shell!.source, plan.cwd ?? process.cwd());
  if ('none' in result) {
    return refuse(
      `nothing to stage: ${result.none} (docs/publishing-outputs.md); or drop --atomic-redirects`,
    );
  }
  return result.found;
}

function checkOutputFile(file: string, plan: Plan, redirect: FinalRedirect | null): void {
  const flag = redirect ? `--atomic-redirects (${redirect.raw})` : '--output';
  if (file === '') throw new RequestError('usage.output', '--output "": name a file');
  if (!redirect && plan.settings.liveStdout === 'capped') {
    throw new RequestError(
      'usage.output',
      '--output takes the product whole; drop --live-stdout capped (or live-stdout in the spec)',
    );
  }
  const stat = statOrNone(file);
  if (stat && !stat.isFile()) {
    throw new RequestError(
      'usage.output',
      `${flag} ${file}: not a regular file; the product is staged beside FILE and renamed over it, which needs a regular file (or none yet)`,
    );
  }
  const dir = path.dirname(stat ? fs.realpathSync(file) : path.resolve(file));
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw new RequestError(
      'usage.output',
      `${flag} ${file}: directory ${dir} does not exist or is not writable`,
    );
  }
}
