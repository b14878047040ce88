import { outcomePhrase } from '../../outcome-text/render.js';
import { WORDINGS } from '../../outcome-text/wordings.js';
import type { Report, StageResult, StreamReport } from '../../types.js';
import { commandText, pipelineText } from './command-text.js';

// JUnit XML as the common schema has it (Jenkins' junit-10.xsd, kept as test/fixtures/junit/): one
// <testsuite> for the run, one <testcase> per stage named by its step and command, its kept stdout
// and stderr as <system-out> and <system-err>. A stage is a <failure> only when the run is not ok and
// its outcome decided that (`false && x` is a list that succeeded: no failure).

// Characters XML 1.0 cannot hold (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are shown as
// \xHH (\uHHHH above a byte), as the kept text shows bytes that are not UTF-8; the five markup
// characters become entities.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function shownCode(char: string): string {
  const code = char.codePointAt(0)!;
  return code < 0x100
    ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function escapeXml(text: string): string {
  return text
    .replaceAll(NOT_XML, shownCode)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

function seconds(ms: number | null): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

// What ran, as written: a -c list with its connectors and any `!`, else the pipeline.
function runText(report: Report): string {
  // A -c text as given, on one line.
  if (report.command) return report.command.trim().replace(/\s*\n\s*/g, '; ');
  const steps = report.steps ?? [];
  if (steps.length === 0) return pipelineText(report.stages);
  return steps
    .map((step) =>
      step.connector === null
        ? step.text
        : `${step.connector === ';' ? ';' : ` ${step.connector}`} ${step.text}`,
    )
    .join('');
}

// The step whose outcome is the run's: the blamed stage's, else the last that ran; null for a run of
// one step, where every stage counts.
function decidingStep(report: Report): number | null {
  const steps = report.steps ?? [];
  if (steps.length <= 1) return null;
  const blamed = report.verdict.blamedStage === null ? null : report.stages[report.verdict.blamedStage - 1];
  if (blamed?.step !== undefined) return blamed.step;
  return steps.filter((step) => step.ran).at(-1)?.index ?? null;
}

function isFailure(stage: StageResult, report: Report, deciding: number | null): boolean {
  if (report.ok || stage.succeeded || stage.status === 'skipped') return false;
  return deciding === null || stage.step === deciding;
}

function testcaseName(stage: StageResult, several: boolean): string {
  const step = several && stage.step !== undefined ? `step ${stage.step}, ` : '';
  return `${step}${WORDINGS.outcome.who(stage)}: ${commandText(stage.argv)}`;
}

// A stream's kept text; what stands in for it when there is none to show; nothing when it was empty
// or went into the next stage's pipe.
function streamElement(tag: 'system-out' | 'system-err', stream: StreamReport): string[] {
  let text: string | null = stream.text;
  if (stream.target) text = WORDINGS.sentTo(stream.target);
  else if (stream.binary) text = `(${stream.bytes} bytes of binary data, not shown)`;
  if (text === null || text.length === 0) return [];
  return [`      <${tag}>${escapeXml(text)}</${tag}>`];
}

function testcase(stage: StageResult, suite: string, failure: boolean, several: boolean): string[] {
  const name = testcaseName(stage, several);
  const out = [
    `    <testcase classname="${escapeXml(suite)}" name="${escapeXml(name)}" time="${seconds(stage.durationMs)}">`,
  ];
  if (stage.status === 'skipped') out.push(`      <skipped message="${escapeXml(outcomePhrase(stage))}"/>`);
  else if (failure) {
    const message = outcomePhrase(stage);
    const detail = [message, stage.stop?.reason, stage.hint].filter(Boolean).join('\n');
    out.push(
      `      <failure message="${escapeXml(message)}" type="${stage.status}">${escapeXml(detail)}</failure>`,
    );
  }
  out.push(...streamElement('system-out', stage.stdout), ...streamElement('system-err', stage.stderr));
  out.push('    </testcase>');
  return out;
}

// A run that is not ok with no stage to blame (a check of --output failed, a negated success):
// the verdict itself is the failing testcase.
function verdictCase(report: Report, suite: string): string[] {
  const reason = escapeXml(report.verdict.reason);
  return [
    `    <testcase classname="${escapeXml(suite)}" name="verdict" time="${seconds(report.durationMs)}">`,
    `      <failure message="${reason}" type="verdict">${escapeXml([report.verdict.reason, report.next].filter(Boolean).join('\n'))}</failure>`,
    '    </testcase>',
  ];
}

// JUnit XML, the format every CI reads as test results.
export function renderJunit(report: Report): string {
  const suite = `safe-run: ${runText(report)}`;
  const deciding = decidingStep(report);
  const several = (report.steps?.length ?? 0) > 1;
  const failed = report.stages.map((stage) => isFailure(stage, report, deciding));
  const cases = report.stages.flatMap((stage, i) => testcase(stage, suite, failed[i]!, several));
  const verdictFails = !report.ok && !failed.includes(true);
  if (verdictFails) cases.push(...verdictCase(report, suite));
  const failures = failed.filter(Boolean).length + (verdictFails ? 1 : 0);
  const tests = report.stages.length + (verdictFails ? 1 : 0);
  const skipped = report.stages.filter((stage) => stage.status === 'skipped').length;
  const counts = `tests="${tests}" failures="${failures}" errors="0"`;
  const time = `time="${seconds(report.durationMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="safe-run" ${counts} ${time}>`,
    `  <testsuite name="${escapeXml(suite)}" ${counts} skipped="${skipped}" ${time} timestamp="${report.startedAt}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
