import type { Report } from '../../types.js';
import type { Reporter } from '../reporter.js';
import { renderGithubAnnotation, renderGithubGroups } from './github.js';
import { renderGitlabSections, renderGitlabSummary } from './gitlab.js';

// The CI systems whose logs safe-run frames its table for (--ci).
export const CI_FRAMES = ['github', 'gitlab', 'none'] as const;
export type CiFrame = (typeof CI_FRAMES)[number];

// The table inside a CI system's frame, on the table's destination: in GitHub Actions, a collapsed
// group of kept stderr per stage, the table, then the ::error annotation (workflow commands must
// start their line, so only the table is stamped); in GitLab, a collapsed section per stage, then
// the table in a section of its own; elsewhere the table alone. `stamp`: what the session does to
// safe-run's own text (timestamps, made inert for the runner).
export function ciFrameReporter(frame: CiFrame, table: Reporter, stamp: (text: string) => string): Reporter {
  const render = (report: Report): string => {
    const stamped = stamp(table.render(report));
    if (frame === 'github') return renderGithubGroups(report) + stamped + renderGithubAnnotation(report);
    if (frame === 'gitlab') return renderGitlabSections(report) + renderGitlabSummary(report, stamped);
    return stamped;
  };
  return {
    name: frame === 'none' ? table.name : `${table.name}-${frame}`,
    destination: table.destination,
    render,
  };
}
