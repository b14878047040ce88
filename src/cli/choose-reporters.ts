import { Chalk } from 'chalk';
import { ciFrameReporter } from '../reporters/ci/ci-frame.js';
import { renderJunit } from '../reporters/ci/junit.js';
import { summaryReporter } from '../reporters/ci/summary-markdown.js';
import { compactReporter } from '../reporters/compact.js';
import { jsonReporter } from '../reporters/json.js';
import type { Reporter } from '../reporters/reporter.js';
import { tableReporter } from '../reporters/table.js';
import type { CiSession } from './ci-session.js';
import type { CliIO } from './cli-io.js';
import { junitDestination } from './junit-target.js';

export interface ReporterChoice {
  json: boolean;
  jsonFormat: 'full' | 'compact';
  quiet: boolean;
  reportFile: string | undefined;
  junit: string | null;
}

function colorLevel(io: CliIO): 0 | 1 {
  if (io.env.NO_COLOR) return 0;
  if (io.env.FORCE_COLOR && io.env.FORCE_COLOR !== '0') return 1;
  return io.stderr.isTTY ? 1 : 0;
}

// Which reporters this run's flags ask for, in the order they write: the --report file, the JUnit
// file, then the JSON document on stdout (--json) or the table on stderr, framed for the CI system,
// then the step summary.
export function chooseReporters(choice: ReporterChoice, session: CiSession, io: CliIO): Reporter[] {
  const reporters: Reporter[] = [];
  if (choice.reportFile)
    reporters.push(jsonReporter({ kind: 'file', path: choice.reportFile, flag: '--report' }));
  if (choice.junit) {
    reporters.push({
      name: 'junit',
      destination: junitDestination(choice.junit, io.env),
      render: renderJunit,
    });
  }
  // Appended after the others (GitHub's step summary), so a problem with it is said last.
  const summary = session.stepSummary ? [summaryReporter(session.stepSummary)] : [];
  if (choice.json) {
    reporters.push(choice.jsonFormat === 'compact' ? compactReporter() : jsonReporter({ kind: 'stdout' }));
    return [...reporters, ...summary];
  }
  const chalk = new Chalk({ level: colorLevel(io) });
  const table = tableReporter({
    chalk,
    quiet: choice.quiet,
    sharedScreen: Boolean(io.stdout.isTTY && io.stderr.isTTY),
  });
  const context = { stamp: (text: string) => session.stamp(text), places: session.places };
  const framed = ciFrameReporter(session.system, table, context);
  // Quiet and ok: the notices alone, stamped; otherwise the table inside the CI system's frame.
  const quietOk = ciFrameReporter('none', table, context);
  reporters.push({
    ...framed,
    render: (report) => (choice.quiet && report.ok ? quietOk : framed).render(report),
  });
  return [...reporters, ...summary];
}
