import fs from 'node:fs';
import { formatBytes } from '../format-units.js';
import type { Expectation } from '../inputs/read-expectation.js';

// JSON.parse needs the whole text in memory; past this a checker program is the better tool.
const MAX_JSON_CHECK_BYTES = 256 * 1024 * 1024;

export interface Verdict {
  passed: boolean;
  detail: string;
}

// Evaluates the checks --expect parsed (src/inputs/read-expectation.ts says how lines are counted).
// Reads the staged file once, in chunks, whatever its size (JSON is parsed only up to its bound).
export function evaluateExpectations(file: string, expectations: readonly Expectation[]): Verdict[] {
  const wantsJson = expectations.some((e) => e.kind === 'json');
  const { bytes, lines, text } = scan(file, wantsJson);
  return expectations.map((expectation) => {
    switch (expectation.kind) {
      case 'nonempty':
        return bytes > 0
          ? { passed: true, detail: `${formatBytes(bytes)}` }
          : { passed: false, detail: 'the output is empty' };
      case 'json':
        return checkJson(bytes, text);
      default:
        return checkLines(expectation, lines);
    }
  });
}

function checkLines(expectation: Expectation & { kind: 'lines' }, lines: number): Verdict {
  const { op, count } = expectation;
  const passed = op === '>=' ? lines >= count : op === '<=' ? lines <= count : lines === count;
  return { passed, detail: `the output has ${lines} line${lines === 1 ? '' : 's'}` };
}

function checkJson(bytes: number, text: string | null): Verdict {
  if (text === null) {
    return {
      passed: false,
      detail: `${formatBytes(bytes)} is more than the ${formatBytes(MAX_JSON_CHECK_BYTES)} the json check parses; use --expect-cmd 'jq empty'`,
    };
  }
  try {
    JSON.parse(text);
    return { passed: true, detail: 'the output is one JSON value' };
  } catch (error) {
    const why = bytes === 0 ? 'the output is empty' : (error as Error).message;
    return { passed: false, detail: `not JSON: ${why}` };
  }
}

function scan(file: string, keepText: boolean): { bytes: number; lines: number; text: string | null } {
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(1024 * 1024);
  const kept: Buffer[] = [];
  let bytes = 0;
  let newlines = 0;
  let last = -1;
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      const chunk = buffer.subarray(0, n);
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) newlines += 1;
      bytes += n;
      last = chunk[n - 1]!;
      if (keepText && bytes <= MAX_JSON_CHECK_BYTES) kept.push(Buffer.from(chunk));
    }
  } finally {
    fs.closeSync(fd);
  }
  const lines = newlines + (bytes > 0 && last !== 0x0a ? 1 : 0);
  const text = keepText && bytes <= MAX_JSON_CHECK_BYTES ? Buffer.concat(kept).toString('utf8') : null;
  return { bytes, lines, text };
}
