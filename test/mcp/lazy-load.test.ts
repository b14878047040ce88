import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const DIST = path.join(ROOT, 'dist');

// Every file the CLI loads before it runs anything: its static imports, followed through chunks.
function staticGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:^|[;\n])\s*import\s*(?:[^'"()]*?from\s*)?["'](\.[^"']+)["']/g)) {
    staticGraph(path.resolve(path.dirname(file), match[1]!), seen);
  }
  return seen;
}

describe('the MCP server in the build', () => {
  it('is loaded only by `safe-run mcp`: an ordinary run does not load the SDK', () => {
    const graph = [...staticGraph(path.join(DIST, 'cli.js'))];
    expect(graph.length).toBeGreaterThan(1);
    for (const file of graph) expect(fs.readFileSync(file, 'utf8')).not.toContain('StdioServerTransport');
    const lazy = fs
      .readdirSync(path.join(DIST, 'chunks'))
      .filter((name) => name.startsWith('mcp-command-'))
      .map((name) => path.join(DIST, 'chunks', name));
    expect(lazy).toHaveLength(1);
    expect(graph).not.toContain(lazy[0]);
    expect(fs.readFileSync(lazy[0]!, 'utf8')).toContain('StdioServerTransport');
  });
});
