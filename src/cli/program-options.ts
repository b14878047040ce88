import { InvalidArgumentError, Option } from 'commander';
import { CLI_FLAGS, type CliFlagKey, cliFlagRows, type FlagGroup } from './flag-table.js';

// The commander options of safe-run's own flags (CLI_FLAGS), in --help order by group.

// Commander's way to let an option be given several times.
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

// What to run and the product are one each: a second -c (or -f, --script, --output) would silently
// replace the first, so the user's first text would not run at all.
function once(flag: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined)
      throw new InvalidArgumentError(`${flag} was given twice, and only one is used; give it once`);
    return value;
  };
}

// The options of one group of CLI_FLAGS; a row with a negation gives its --no- form right after it.
export function flagOptions(group: FlagGroup): Option[] {
  const options: Option[] = [];
  for (const row of cliFlagRows()) {
    if (row.group !== group) continue;
    const option = new Option(row.flags, row.help);
    if (row.kind.choices) option.choices(row.kind.choices);
    if (row.kind.repeatable) option.argParser(collect);
    else if (row.fromEnv !== 'default') option.argParser(once(shownFlag(row.key)));
    if (row.hidden) option.hideHelp();
    options.push(option);
    if (row.negation) options.push(new Option(`--no-${longName(row.key)}`, row.negation));
  }
  return options;
}

// The long flag of a row, without dashes or argument: 'no-live' -> 'live' is the key's flag.
function longName(key: CliFlagKey): string {
  const long = /--([a-z-]+)/.exec(CLI_FLAGS[key].flags)![1]!;
  return long.startsWith('no-') ? long.slice(3) : long;
}

// The flag as a user most likely wrote it: -c, --ok-codes, --no-live.
export function shownFlag(key: CliFlagKey): string {
  return /^-{1,2}[a-z-]+/.exec(CLI_FLAGS[key].flags)![0]!;
}
