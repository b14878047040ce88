import path from 'node:path';
import { RequestError } from '../errors.js';
import { DEFAULT_SETTINGS } from '../settings/defaults.js';
import type { Plan, Settings, StageSpec } from '../types.js';
import { checkLogDir, checkRunCwd, checkStdinFile } from './check-paths.js';
import { checkStageCount } from './limits.js';

// What a spec file contributes to a Plan: its stages, and only the settings it sets, so that
// command-line flags can override them and DEFAULT_SETTINGS fill in the rest.
export interface SpecInput {
  stages: StageSpec[];
  settings: Partial<Settings>;
  // output, keep-partial, expect, expect-cmd as written (output resolved against the spec's directory).
  delivery?: SpecDelivery;
}

export interface SpecDelivery {
  output?: string;
  keepPartial?: boolean;
  expect: string[];
  expectCmd: string[];
}

// Accepted exit codes for one stage, by name or 1-based index, and how the user wrote it (for messages).
interface OkCodesEntry {
  stage: string;
  codes: number[];
  written: string;
}

// Everything a plan is made of, from any front end (the CLI, the library).
export interface PlanRequest {
  source: Plan['source'];
  stages: StageSpec[];
  // Settings from lowest to highest precedence; DEFAULT_SETTINGS are below them all.
  layers: Partial<Settings>[];
  okCodes: OkCodesEntry[];
  // The directory every stage without a directory of its own runs in (--cwd); null: where safe-run runs.
  cwd: string | null;
}

// The one plan builder: the library and the CLI make the same checks, before anything starts.
export function assemblePlan(request: PlanRequest): Plan {
  checkStageCount(request.stages.length, 'the pipeline');
  const stages = placeStages(request);
  applyOkCodes(request.okCodes, stages);
  const settings: Settings = Object.assign({ ...DEFAULT_SETTINGS }, ...request.layers);
  // 0 is no limit (as for coreutils timeout), whichever front end said it.
  if (settings.timeoutMs === 0) settings.timeoutMs = null;
  if (settings.idleTimeoutMs === 0) settings.idleTimeoutMs = null;
  if (settings.stdin.kind === 'file') checkStdinFile(settings.stdin.path);
  if (settings.logDir) checkLogDir(settings.logDir);
  return { source: request.source, stages, settings };
}

function placeStages(request: PlanRequest): StageSpec[] {
  const { cwd } = request;
  if (cwd === null) return request.stages;
  checkRunCwd(cwd);
  return request.stages.map((stage) => ({ ...stage, cwd: path.resolve(cwd, stage.cwd ?? '.') }));
}

const CODES = /^\d{1,3}$/;

function applyOkCodes(entries: readonly OkCodesEntry[], stages: StageSpec[]): void {
  const byName = new Map(stages.map((stage, index) => [stage.name, index]));
  for (const { stage: key, codes, written } of entries) {
    const index = /^\d+$/.test(key) ? Number(key) - 1 : (byName.get(key) ?? -1);
    const stage = stages[index];
    if (!stage) {
      const names = stages
        .slice(0, 20)
        .map((s, i) => `${i + 1}=${s.name}`)
        .join(', ');
      const more = stages.length > 20 ? `, … (${stages.length} stages)` : '';
      throw new RequestError(
        'usage.ok-codes',
        `--ok-codes ${written}: no stage "${key}" (stages: ${names}${more})`,
      );
    }
    const bad = codes.find((code) => !Number.isInteger(code) || code < 0 || code > 255);
    if (bad !== undefined || codes.length === 0) {
      const what = bad === undefined ? 'no codes given' : `${bad} is not an exit code (0-255)`;
      throw new RequestError('usage.ok-codes', `--ok-codes ${written}: ${what}`);
    }
    stages[index] = { ...stage, okCodes: [...codes] };
  }
}

// `--ok-codes grep=0,1` as an entry.
export function readOkCodes(written: string): OkCodesEntry {
  const match = /^([^=]+)=(\d+(?:,\d+)*)$/.exec(written);
  if (!match || !match[2]!.split(',').every((code) => CODES.test(code))) {
    throw new RequestError(
      'usage.ok-codes',
      `--ok-codes ${written}: expected STAGE=CODES, e.g. grep=0,1 or 2=0,1 (STAGE: a name or a 1-based index)`,
    );
  }
  return { stage: match[1]!, codes: match[2]!.split(',').map(Number), written };
}
