import type { Report, StageResult } from '../../types.js';
import { commandText, outcomePhrase, pipelineText } from './command-text.js';

// Characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) become
// U+FFFD; the five markup characters become entities.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return text
    .replaceAll(NOT_XML, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

function seconds(ms: number | null): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

function isFailure(stage: StageResult): boolean {
  return !stage.succeeded && stage.status !== 'skipped';
}

function testcase(stage: StageResult, suite: string): string[] {
  const name = `${stage.index} ${stage.name}: ${commandText(stage.argv)}`;
  const out = [
    `    <testcase classname="${escapeXml(suite)}" name="${escapeXml(name)}" time="${seconds(stage.durationMs)}">`,
  ];
  if (stage.status === 'skipped') out.push(`      <skipped message="${escapeXml(outcomePhrase(stage))}"/>`);
  else if (isFailure(stage)) {
    const message = outcomePhrase(stage);
    const detail = [message, stage.stop?.reason, stage.hint].filter(Boolean).join('\n');
    out.push(
      `      <failure message="${escapeXml(message)}" type="${stage.status}">${escapeXml(detail)}</failure>`,
    );
  }
  if (stage.stderr.text) out.push(`      <system-err>${escapeXml(stage.stderr.text)}</system-err>`);
  out.push('    </testcase>');
  return out;
}

// JUnit XML, the format every CI reads as test results: one testsuite for the pipeline, one
// testcase per stage; a stage that did not succeed is a failure with how it ended and its stderr.
export function renderJunit(report: Report): string {
  const suite = `safe-run: ${pipelineText(report.stages)}`;
  const tests = report.stages.length;
  const failures = report.stages.filter(isFailure).length;
  const skipped = report.stages.filter((stage) => stage.status === 'skipped').length;
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="safe-run" ${counts}>`,
    `  <testsuite name="${escapeXml(suite)}" ${counts} timestamp="${report.startedAt}">`,
    ...report.stages.flatMap((stage) => testcase(stage, suite)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
