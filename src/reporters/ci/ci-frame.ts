import type { Report } from '../../types.js';
import type { Reporter } from '../reporter.js';
import { renderGithubAnnotation, renderGithubGroups } from './github.js';
import { renderGitlabSections, renderGitlabSummary } from './gitlab.js';
import { renderToolAnnotations, type ToolPlaces } from './tool-annotations.js';

// The CI systems whose logs safe-run frames its table for (--ci).
export const CI_FRAMES = ['github', 'gitlab', 'none'] as const;
export type CiFrame = (typeof CI_FRAMES)[number];

// What the frame needs of the session: what it does to safe-run's own text (timestamps, made inert
// for the runner), and where a tool's paths are read from.
interface FrameContext {
  stamp: (text: string) => string;
  places: ToolPlaces;
}

// The table inside a CI system's frame, on the table's destination: in GitHub Actions, a collapsed
// group of kept stderr per stage, the table, then the ::error annotation and the tool's own problems
// as annotations (workflow commands must start their line, so only the table is stamped); in
// GitLab, a collapsed section per stage, then the table in a section of its own; elsewhere the
// table alone.
export function ciFrameReporter(frame: CiFrame, table: Reporter, context: FrameContext): Reporter {
  const { stamp, places } = context;
  const render = (report: Report): string => {
    const stamped = stamp(table.render(report));
    if (frame === 'github') {
      const tools = renderToolAnnotations(report, places);
      return renderGithubGroups(report) + stamped + renderGithubAnnotation(report) + tools;
    }
    if (frame === 'gitlab') return renderGitlabSections(report) + renderGitlabSummary(report, stamped);
    return stamped;
  };
  return {
    name: frame === 'none' ? table.name : `${table.name}-${frame}`,
    destination: table.destination,
    render,
  };
}
