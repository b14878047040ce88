// What one case's two runs say: interpreted and the same as bash, interpreted and different, refused
// (and why, as a group), or not comparable (bash itself varies, a time limit, a text no argv can hold).

// bash's own prefix on its messages, which safe-run words in places differently (docs/inline-grammar.md).
function plainStderr(text) {
  return text
    .split('\n')
    .map((line) => line.replace(/^bash: (line \d+: )?/, ''))
    .join('\n');
}

// safe-run's table (on stderr when the verdict is not ok) is not the text's stderr.
function textStderr(run) {
  const at = run.stderr.search(/^command: /m);
  return at < 0 ? run.stderr : run.stderr.slice(0, at);
}

// A stage's environment has SAFE_RUN_ID beside bash's (docs/inline-grammar.md, what a stage sees).
function textStdout(run) {
  return run.stdout.replace(/^SAFE_RUN_ID=.*\n/gm, '');
}

function sameOutcome(a, b) {
  const differ = [];
  if (a.code !== b.code) differ.push('exit');
  if (a.stdout !== b.stdout) differ.push('stdout');
  if (JSON.stringify(a.files) !== JSON.stringify(b.files)) differ.push('files');
  if (JSON.stringify(a.home) !== JSON.stringify(b.home)) differ.push('home');
  return differ;
}

// Why safe-run refused: before anything started (its one line), or when the command was reached.
function refusalGroup(run) {
  const before = /^safe-run: -c: (.+?) at (?:line \d+, )?column \d+ (.*?); add --fallback bash/m.exec(
    run.stderr,
  );
  if (before) return before[1].startsWith('builtin ') ? before[1] : `${before[1]} ${before[2]}`;
  const reason = run.report?.verdict?.reason ?? '';
  const reached = /refused.*? at line \d+, column \d+ (.*)$/.exec(reason);
  if (run.code === 125 && reached) return `when reached: ${reached[1]}`;
  return null;
}

export function classify(bash, bashAgain, ours) {
  if (bash.timedOut || ours.timedOut) return { kind: 'timeout' };
  if (sameOutcome(bash, bashAgain).length > 0) return { kind: 'bash-varies' };
  const group = refusalGroup(ours);
  if (group !== null) return { kind: 'refused', group };
  const syntaxInBash = bash.code === 2 && /syntax error/.test(bash.stderr);
  if (syntaxInBash && ours.code === 125 && /syntax error|unexpected|not closed/.test(ours.stderr))
    return { kind: 'syntax-error-both' };
  const differ = sameOutcome(bash, { ...ours, stdout: textStdout(ours) });
  if (differ.length > 0) return { kind: 'different', differ };
  const stderrSame = plainStderr(bash.stderr) === plainStderr(textStderr(ours));
  return { kind: 'same', stderrSame };
}
