// The exit-code contracts of well-known tools, as data (docs/exit-codes.md has them as a table).
// An exit code means something only against its program's own contract: grep's 1 is "no line was
// selected", diff's 1 "the files differ", curl's 22 an HTTP error. safe-run uses these to explain a
// code; a code changes the verdict only when the user opts in (--ok-codes, or `contract: lenient` on
// a spec stage, which accepts the codes marked `benign`).

export interface CodeMeaning {
  meaning: string;
  // Not an error by the tool's contract (a valid negative answer, a warning): accepted by `lenient`.
  benign?: boolean;
  // The same command may well succeed if run again (a network or timing problem).
  transient?: boolean;
}

export interface ExitContract {
  // Program basenames this contract is for.
  programs: string[];
  // Applies only when the arguments contain one of these (git diff --exit-code); absent: always.
  whenArgs?: string[][];
  codes: Record<number, CodeMeaning>;
}

const GREP: ExitContract['codes'] = {
  0: { meaning: 'a line was selected' },
  1: { meaning: 'no line was selected', benign: true },
  2: { meaning: 'an error occurred (a file could not be read, or a bad pattern or option)' },
};

const DIFFERS: ExitContract['codes'] = {
  0: { meaning: 'the inputs are the same' },
  1: { meaning: 'the inputs differ', benign: true },
  2: { meaning: 'trouble: a file could not be read, or a bad option' },
};

const TEST: ExitContract['codes'] = {
  0: { meaning: 'the expression is true' },
  1: { meaning: 'the expression is false', benign: true },
  2: { meaning: 'an error in the expression (a missing operand, an unknown operator)' },
};

const NET = { transient: true };

// First match wins: the argument-specific contracts of a program come before its general one.
export const EXIT_CONTRACTS: readonly ExitContract[] = [
  { programs: ['grep', 'egrep', 'fgrep', 'zgrep'], codes: GREP },
  { programs: ['ag', 'ack'], codes: { 0: GREP[0]!, 1: GREP[1]! } },
  {
    programs: ['rg'],
    codes: { ...GREP, 2: { meaning: 'an error occurred (even when some lines matched, unless -q)' } },
  },
  { programs: ['diff'], codes: DIFFERS },
  { programs: ['cmp'], codes: DIFFERS },
  { programs: ['test', '['], codes: TEST },
  {
    programs: ['curl'],
    codes: {
      0: { meaning: 'the transfer succeeded' },
      1: { meaning: 'unsupported protocol' },
      2: { meaning: 'failed to initialize' },
      3: { meaning: 'the URL is malformed' },
      5: { meaning: 'could not resolve the proxy', ...NET },
      6: { meaning: 'could not resolve the host name', ...NET },
      7: { meaning: 'failed to connect to the host', ...NET },
      18: { meaning: 'partial file: the transfer ended early', ...NET },
      22: { meaning: 'the server answered with an HTTP error (400 or above) and --fail was given' },
      23: { meaning: 'could not write the received data (disk full, or a closed output)' },
      26: { meaning: 'could not read a local file to send' },
      28: { meaning: 'the operation timed out', ...NET },
      35: { meaning: 'the TLS handshake failed', ...NET },
      47: { meaning: 'too many redirects' },
      52: { meaning: 'the server sent an empty reply', ...NET },
      55: { meaning: 'failed sending network data', ...NET },
      56: { meaning: 'failure receiving network data', ...NET },
      60: { meaning: "the server's TLS certificate could not be verified" },
    },
  },
  {
    programs: ['wget'],
    codes: {
      0: { meaning: 'no problems occurred' },
      1: { meaning: 'a generic error' },
      2: { meaning: 'a parse error in the command line or a .wgetrc' },
      3: { meaning: 'a file I/O error' },
      4: { meaning: 'a network failure', ...NET },
      5: { meaning: 'TLS verification failed' },
      6: { meaning: 'authentication failed' },
      7: { meaning: 'a protocol error' },
      8: { meaning: 'the server answered with an error (404, 500...)' },
    },
  },
  {
    programs: ['git'],
    whenArgs: [['diff'], ['diff-index'], ['diff-files'], ['diff-tree']].map((sub) => [
      ...sub,
      '--exit-code|--quiet',
    ]),
    codes: {
      0: { meaning: 'no differences' },
      1: { meaning: 'there are differences (--exit-code/--quiet)', benign: true },
      128: { meaning: 'fatal: not a repository, a bad revision or path' },
      129: { meaning: 'a usage error (an unknown option)' },
    },
  },
  {
    programs: ['git'],
    whenArgs: [['grep']],
    codes: { 0: GREP[0]!, 1: GREP[1]!, 128: { meaning: 'fatal: not a repository, or a bad pattern' } },
  },
  {
    programs: ['git'],
    codes: {
      0: { meaning: 'success' },
      1: { meaning: 'the subcommand failed (its message is on stderr)' },
      128: { meaning: 'fatal: not a repository, a bad revision, or a remote that cannot be reached' },
      129: { meaning: 'a usage error (an unknown option)' },
    },
  },
  {
    programs: ['timeout'],
    codes: {
      124: { meaning: 'the command timed out' },
      125: { meaning: 'timeout itself failed (a bad duration or option)' },
      126: { meaning: 'the command was found but could not be run' },
      127: { meaning: 'the command was not found' },
      137: { meaning: 'the command was killed by SIGKILL (after -k, or --signal=KILL)' },
    },
  },
  {
    programs: ['ssh'],
    codes: {
      255: {
        meaning:
          "ssh itself failed (connection, authentication, or host key); other codes are the remote command's",
        ...NET,
      },
    },
  },
  {
    programs: ['rsync'],
    codes: {
      0: { meaning: 'success' },
      1: { meaning: 'a syntax or usage error' },
      2: { meaning: 'the two sides speak incompatible protocols' },
      3: { meaning: 'errors selecting input or output files or directories' },
      5: { meaning: 'error starting the client-server protocol', ...NET },
      10: { meaning: 'an error in socket I/O', ...NET },
      11: { meaning: 'an error in file I/O' },
      12: { meaning: 'an error in the rsync protocol data stream', ...NET },
      20: { meaning: 'rsync received SIGUSR1 or SIGINT' },
      23: { meaning: 'partial transfer: some files could not be transferred' },
      24: { meaning: 'partial transfer: some source files vanished while it ran', benign: true },
      30: { meaning: 'a timeout in sending or receiving data', ...NET },
      35: { meaning: 'a timeout waiting for the daemon to connect', ...NET },
    },
  },
  {
    programs: ['make', 'gmake'],
    whenArgs: [['-q'], ['--question']],
    codes: {
      0: { meaning: 'the targets are up to date' },
      1: { meaning: 'some target is not up to date (-q)', benign: true },
      2: { meaning: 'an error was encountered' },
    },
  },
  {
    programs: ['make', 'gmake'],
    codes: {
      0: { meaning: 'success' },
      2: { meaning: 'an error was encountered (a recipe failed, or no rule)' },
    },
  },
  {
    programs: ['pytest', 'py.test'],
    codes: {
      0: { meaning: 'all tests passed' },
      1: { meaning: 'some tests failed' },
      2: { meaning: 'the test run was interrupted' },
      3: { meaning: 'an internal error in pytest' },
      4: { meaning: 'a pytest usage error (a bad option or path)' },
      5: { meaning: 'no tests were collected', benign: true },
    },
  },
  {
    programs: ['jest', 'vitest'],
    codes: {
      0: { meaning: 'all tests passed' },
      1: { meaning: 'some tests failed, or the run itself failed (see its output)' },
    },
  },
  {
    programs: ['npm', 'pnpm', 'yarn'],
    codes: {
      0: { meaning: 'success' },
      1: {
        meaning: "npm itself failed, or the script it ran exited 1 (npm run passes a script's own code on)",
      },
    },
  },
  {
    programs: ['tar', 'gtar'],
    codes: {
      0: { meaning: 'success' },
      1: { meaning: 'some files differ (--compare), or a file changed while it was read', benign: true },
      2: { meaning: 'a fatal error' },
    },
  },
  {
    programs: ['gzip', 'gunzip', 'zcat'],
    codes: {
      0: { meaning: 'success' },
      1: { meaning: 'an error occurred' },
      2: { meaning: 'a warning (for example trailing garbage ignored)', benign: true },
    },
  },
  {
    programs: ['xargs'],
    codes: {
      0: { meaning: 'every invocation of the command succeeded' },
      1: { meaning: 'xargs itself failed (a bad option, or input it could not read)' },
      123: { meaning: 'some invocation of the command exited with a status from 1 to 125' },
      124: { meaning: 'the command exited with status 255: xargs stopped' },
      125: { meaning: 'the command was killed by a signal' },
      126: { meaning: 'the command was found but could not be run' },
      127: { meaning: 'the command was not found' },
    },
  },
  {
    programs: ['find'],
    codes: {
      0: { meaning: 'every file was processed' },
      1: {
        meaning:
          'some files could not be visited (often permission denied) or an error occurred; the rest was printed',
      },
    },
  },
];
