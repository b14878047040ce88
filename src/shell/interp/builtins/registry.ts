import type { BuiltinName } from '../../../model/bash-builtins.js';
import { alias, unalias } from './alias.js';
import { colon, echo, falseBuiltin, printf, pwd } from './basic.js';
import { cd } from './cd.js';
import type { Builtin } from './context.js';
import { declareLike } from './declare.js';
import { dirs, popd, pushd } from './dirstack.js';
import { disown } from './disown.js';
import { evalBuiltin, exit, loopControl, returnBuiltin, shift, source } from './flow.js';
import { getopts } from './getopts.js';
import { help } from './help.js';
import { jobsBuiltin, kill, trap } from './jobs.js';
import { mapfile } from './mapfile.js';
import { hash, letBuiltin, umask, unset } from './misc.js';
import { read } from './read.js';
import { set, shopt } from './set.js';
import { test } from './test.js';
import { builtinBuiltin, command, type } from './type.js';
import { wait } from './wait.js';

// The builtins safe-run's interpreter runs itself, by name: bash's (BuiltinName), the others refused.
// (exec is the runner's own: it changes the shell's descriptors or replaces the shell.)
const RUN: [BuiltinName, Builtin][] = [
  [':', colon],
  ['true', colon],
  ['false', falseBuiltin],
  ['echo', echo],
  ['printf', printf],
  ['pwd', pwd],
  ['cd', cd],
  ['declare', declareLike],
  ['typeset', declareLike],
  ['local', declareLike],
  ['readonly', declareLike],
  ['export', declareLike],
  ['unset', unset],
  ['exit', exit],
  ['return', returnBuiltin],
  ['break', loopControl],
  ['continue', loopControl],
  ['shift', shift],
  ['eval', evalBuiltin],
  ['source', source],
  ['.', source],
  ['set', set],
  ['shopt', shopt],
  ['test', test],
  ['[', test],
  ['read', read],
  ['mapfile', mapfile],
  ['readarray', mapfile],
  ['let', letBuiltin],
  ['hash', hash],
  ['umask', umask],
  ['command', command],
  ['builtin', builtinBuiltin],
  ['dirs', dirs],
  ['pushd', pushd],
  ['popd', popd],
  ['help', help],
  ['alias', alias],
  ['unalias', unalias],
  ['type', type],
  ['getopts', getopts],
  ['trap', trap],
  ['wait', wait],
  ['jobs', jobsBuiltin],
  ['kill', kill],
  ['disown', disown],
  ['exec', colon],
];

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(RUN);
