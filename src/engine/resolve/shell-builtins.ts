// `compgen -b` and `compgen -k` of bash 5.2.
const BUILTINS = new Set(
  (
    '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown ' +
    'echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile ' +
    'popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true ' +
    'type typeset ulimit umask unalias unset wait'
  ).split(' '),
);
const KEYWORDS = new Set(
  'if then else elif fi case esac for select while until do done in function time { } ! [[ ]] coproc'.split(
    ' ',
  ),
);

// Names people write as a first word in a shell but that no file on PATH provides (`cd`, `source`,
// `if`): asked only after the PATH search found nothing, so a real `/usr/bin/cd` still wins.
export function shellWordKind(name: string): 'builtin' | 'keyword' | null {
  if (BUILTINS.has(name)) return 'builtin';
  if (KEYWORDS.has(name)) return 'keyword';
  return null;
}
