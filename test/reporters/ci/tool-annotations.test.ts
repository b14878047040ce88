import { describe, expect, it } from 'vitest';
import {
  annotationPath,
  MAX_TOOL_ERRORS,
  MAX_TOOL_WARNINGS,
  renderToolAnnotations,
} from '../../../src/reporters/ci/tool-annotations.js';
import type { Report, StageResult } from '../../../src/types.js';
import { readAsRunner } from '../../helpers/github-runner.js';
import { reportOf, stageResult, streamReport } from '../../helpers/report-fixtures.js';

// The annotations made from a failed stage's diagnostics, read back as the GitHub runner reads them.

const WS = '/home/runner/work/app/app';
const places = { workspace: WS, cwd: WS };

function failedRun(stages: StageResult[], blamed: number, extra: Partial<Report> = {}): Report {
  return reportOf(stages, {
    verdict: { ok: false, exitCode: 1, blamedStage: blamed, reason: 'policy pipefail: stage failed' },
    ...extra,
  });
}

function gcc(stderr: string, overrides: Partial<StageResult> = {}): StageResult {
  return stageResult(1, 'failed', {
    name: 'gcc',
    argv: ['gcc', '-c', 'a.c'],
    stderr: streamReport({ text: stderr }),
    ...overrides,
  });
}

describe('annotations from a failed stage', () => {
  it("gives one per problem, with the place, the level, the stage and the tool's message as the runner decodes them", () => {
    const stderr = `src/a,b.c:4:18: error: 100% wrong: 'x'\nsrc/a.c:3:7: warning: unused\n`;
    const view = readAsRunner(renderToolAnnotations(failedRun([gcc(stderr)], 1), places));
    expect(view.annotations).toEqual([
      {
        level: 'error',
        props: { file: 'src/a,b.c', line: '4', col: '18', title: 'stage 1 "gcc"' },
        message: "100% wrong: 'x'",
      },
      {
        level: 'warning',
        props: { file: 'src/a.c', line: '3', col: '7', title: 'stage 1 "gcc"' },
        message: 'unused',
      },
    ]);
    expect(view.shown).toEqual([]);
  });

  it('keeps a message of several lines in one annotation', () => {
    const stderr = "a.ts(1,7): error TS2322: Type 'A' is wrong.\n  Because of 'b'.\n";
    const text = renderToolAnnotations(failedRun([gcc(stderr, { name: 'tsc' })], 1), places);
    expect(text.split('\n')).toHaveLength(2);
    const [only] = readAsRunner(text).annotations;
    expect(only).toEqual({
      level: 'error',
      props: { file: 'a.ts', line: '1', col: '7', title: 'stage 1 "tsc": TS2322' },
      message: "Type 'A' is wrong.\nBecause of 'b'.",
    });
  });

  it(`stops at ${MAX_TOOL_ERRORS} errors and ${MAX_TOOL_WARNINGS} warnings and counts the rest in a notice`, () => {
    const lines: string[] = [];
    for (let i = 1; i <= 14; i += 1) lines.push(`a.c:${i}:1: error: e${i}`);
    for (let i = 1; i <= 12; i += 1) lines.push(`a.c:${100 + i}:1: warning: w${i}`);
    const view = readAsRunner(renderToolAnnotations(failedRun([gcc(lines.join('\n'))], 1), places));
    const errors = view.annotations.filter((a) => a.level === 'error');
    const warnings = view.annotations.filter((a) => a.level === 'warning');
    expect(errors.map((a) => a.message)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9']);
    expect(warnings).toHaveLength(10);
    const notices = view.annotations.filter((a) => a.level === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.props.title).toBe('safe-run: more problems from stage 1 "gcc"');
    expect(notices[0]!.message).toMatch(
      /^5 more errors and 2 more warnings in its output were not annotated/,
    );
  });

  it('reads what the stage piped into the next one (make 2>&1 | tee log), and nothing of an ok run', () => {
    const make = stageResult(1, 'failed', {
      name: 'make',
      stdout: streamReport({ bytes: null, text: null }),
    });
    const tee = stageResult(2, 'ok', {
      name: 'tee',
      stdout: streamReport({ bytes: 30, text: 'x.c:2:1: error: from make\n' }),
    });
    const view = readAsRunner(renderToolAnnotations(failedRun([make, tee], 1), places));
    expect(view.annotations.map((a) => [a.props.file, a.props.title, a.message])).toEqual([
      ['x.c', 'stage 1 "make"', 'from make'],
    ]);
    const ok = reportOf([gcc('a.c:1:1: error: old news\n', { status: 'ok' })]);
    expect(renderToolAnnotations(ok, places)).toBe('');
  });

  it("resolves paths against the step's directory and makes them relative to the checkout", () => {
    const stage = gcc(
      `../lib/x.c:1:1: error: up\n${WS}/src/y.c:2:2: error: abs\n/usr/include/z.h:3:3: error: out\n`,
      {
        step: 1,
      },
    );
    const steps = [
      { index: 1, text: 'gcc', connector: null, ran: true, exitCode: 1, cwd: `${WS}/app`, stages: [1] },
    ];
    const view = readAsRunner(renderToolAnnotations(failedRun([stage], 1, { steps }), places));
    expect(view.annotations.map((a) => a.props.file)).toEqual(['lib/x.c', 'src/y.c', '/usr/include/z.h']);
  });
});

describe('annotation paths', () => {
  it('are relative to the checkout when under it, else as the tool printed them', () => {
    expect(annotationPath('a.c', `${WS}/sub`, WS)).toBe('sub/a.c');
    expect(annotationPath('../../a.c', `${WS}/sub`, WS)).toBe('../../a.c');
    expect(annotationPath('a.c', '/elsewhere', WS)).toBe('a.c');
    expect(annotationPath('a.c', `${WS}/sub`, null)).toBe('a.c');
  });
});
