import { Option } from 'commander';
import { AGENT_SETTINGS } from '../agent/agent-defaults.js';
import type { FlagValue } from '../settings/kinds.js';
import { settingRows } from '../settings/table.js';
import type { Settings } from '../types.js';

// The settings `safe-run mcp` takes as flags, by their key in the settings table: each flag's name,
// argument and reader are the table's (as for `safe-run` itself); the help is the server's, with a
// call's default under the agent defaults.
const SERVER_SETTINGS: Partial<Record<keyof Settings, string>> = {
  timeoutMs: 'default time limit of a run',
  idleTimeoutMs: 'stop a run this long without output',
  promptWaitMs: 'stop a run quiet this long after a prompt',
  mask: 'mask the values of these variables too, as `safe-run --mask` does',
};

const serverRows = () => settingRows().filter((row) => SERVER_SETTINGS[row.key] !== undefined);

// The commander options of those settings.
export function serverSettingOptions(): Option[] {
  return serverRows().map((row) => {
    const arg = row.arg ?? row.kind.arg ?? '';
    const spelled = row.kind.repeatable ? arg.replace(/>$/, '...>') : arg;
    const agent = AGENT_SETTINGS[row.key];
    const shown = agent === undefined ? '' : ` (default: ${row.kind.show(agent as never)})`;
    return new Option(`${row.flag} ${spelled}`, `${SERVER_SETTINGS[row.key]}${shown}`);
  });
}

// The settings the server's flags give (commander's parsed options), read as the table reads them:
// 0 is no limit, names are checked.
export function serverSettings(parsed: Readonly<Record<string, unknown>>): Partial<Settings> {
  const out: Record<string, unknown> = {};
  for (const row of serverRows()) {
    const raw = parsed[new Option(row.flag).attributeName()] as FlagValue | undefined;
    if (raw !== undefined) out[row.key] = row.kind.fromFlag(raw, row.flag);
  }
  return out as Partial<Settings>;
}
