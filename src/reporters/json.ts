import type { Report } from '../types.js';
import type { Destination, Reporter } from './reporter.js';

// The report as the documented JSON document (docs/json-report.md), to stdout (--json) or a file
// (--report FILE).
export function jsonReporter(destination: Destination): Reporter {
  return {
    name: 'json',
    destination,
    render: (report: Report) => `${JSON.stringify(report, null, 2)}\n`,
  };
}
