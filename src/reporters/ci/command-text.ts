import { quoteWord } from '../../quote-word.js';
import type { StageResult } from '../../types.js';

// One stage's command as a person would type it: its argv, quoted where a shell would need it.
export function commandText(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}

// The whole pipeline in one line: "cat report.txt | wc -l".
export function pipelineText(stages: readonly Pick<StageResult, 'argv'>[]): string {
  return stages.map((stage) => commandText(stage.argv)).join(' | ');
}

// The last `count` non-empty lines of a stream's kept text (the tail is what explains a failure).
export function lastLines(text: string | null, count: number): string[] {
  const lines = (text ?? '').split('\n').filter((line) => line.trim().length > 0);
  return lines.slice(-count);
}
