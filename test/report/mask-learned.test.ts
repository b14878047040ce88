import { describe, expect, it } from 'vitest';
import { HeadTailKeeper } from '../../src/capture/head-tail.js';
import { maskKeptText, maskLearned } from '../../src/engine/report/mask-learned.js';
import { reportOf, stageResult, streamReport } from '../helpers/report-fixtures.js';

// Values learned after a text was kept (a stage's ::add-mask::) masked in it afterwards, as the
// keeper would have masked them had it known them.

const VALUE = 'learned-V4lue';

describe('masking kept text afterwards', () => {
  it('masks whole values, and the pieces the cut between head and tail left on either side', () => {
    // A keeper of 64 bytes cuts this stream 7 bytes into the value (head) and 6 bytes before its end (tail).
    const keeper = new HeadTailKeeper(64);
    const stream = `${'h'.repeat(25)}${VALUE}${'m'.repeat(40)}${VALUE}${'t'.repeat(26)}`;
    keeper.push(Buffer.from(stream));
    const kept = keeper.finish().text!;
    expect(kept).toContain('learned\n[... safe-run:');
    expect(kept).toContain('bytes omitted ...]\n-V4lue');
    const masked = maskKeptText(kept, [VALUE]);
    expect(masked).toMatch(/^h{25}\*\*\*\n\[\.\.\. safe-run: [\d,]+ bytes omitted \.\.\.\]\n\*\*\*t{26}$/);
    expect(maskKeptText(`a ${VALUE} b\n${VALUE}`, [VALUE])).toBe('a *** b\n***');
  });

  it('masks every stage stream, the free text and the command, and masking twice changes nothing', () => {
    const stage = stageResult(1, 'failed', {
      argv: ['sh', '-c', `echo ${VALUE}`],
      stderr: streamReport({ text: `err ${VALUE}\n` }),
      stdout: streamReport({ text: `out ${VALUE}\n` }),
    });
    const report = reportOf([stage], {
      next: `its last line: "err ${VALUE}"`,
      command: `sh -c "echo ${VALUE}"`,
    });
    const once = maskLearned(report, [VALUE, '*']);
    expect(JSON.stringify(once)).not.toContain(VALUE);
    expect(once.stages[0]!.stderr.text).toBe('err ***\n');
    expect(once.command).toBe('sh -c "echo ***"');
    expect(maskLearned(once, [VALUE, '*'])).toEqual(once);
    expect(maskLearned(report, [])).toBe(report);
  });
});
