import { spawn } from 'node:child_process';
import { bashPath } from '../bash-path.js';
import type { Bytes } from '../syntax/source.js';

// `read -t TIMEOUT`: a read that may give up. Node cannot stop a read it started on a pipe or a
// terminal, and one left waiting would take the next reader's bytes, so the read is bash's own, in
// a helper bash whose stdin is the same descriptor (it reads the record byte by byte and leaves the
// rest, as the read builtin does). Its options and IFS arrive as data; the variables it fills are
// its own (__sr_v1..., __sr_a, REPLY), sent back NUL-separated; nothing of the text runs there.
const SCRIPT = `if [[ $1 == set ]]; then IFS=$2; else unset IFS; fi
__sr_n=$3 __sr_m=$4; shift 4
__sr_o=("\${@:1:__sr_n}")
if [[ $__sr_m == a ]]; then
  read "\${__sr_o[@]}" -a __sr_a; printf '%s\\0' "$?" "\${__sr_a[@]}"
elif (( __sr_m == 0 )); then
  read "\${__sr_o[@]}"; printf '%s\\0' "$?" "$REPLY"
else
  __sr_names=(); for ((__sr_i = 1; __sr_i <= __sr_m; __sr_i++)); do __sr_names+=("__sr_v$__sr_i"); done
  read "\${__sr_o[@]}" "\${__sr_names[@]}"; __sr_s=$?
  printf '%s\\0' "$__sr_s"; for __sr_v in "\${__sr_names[@]}"; do printf '%s\\0' "\${!__sr_v}"; done
fi`;

interface HelperRead {
  // read's options as given (-r, -s, -d D, -n N, -N N, -t T, -p P), each a separate argument.
  options: Bytes[];
  // How many names get fields ('a': an array), and IFS (null: unset).
  names: number | 'a';
  ifs: Bytes | null;
}

// The helper's status and the values read (one per name, the array's elements, or REPLY), and what
// it wrote to stderr (a prompt).
export function readWithHelper(
  halt: Promise<unknown>,
  fd: number,
  request: HelperRead,
): Promise<{ status: number; values: Bytes[]; stderr: Bytes }> {
  const { options, names, ifs } = request;
  const argv = ['--norc', '--noprofile', '-c', SCRIPT, 'read'];
  argv.push(ifs === null ? 'unset' : 'set', ifs ?? '', String(options.length), String(names), ...options);
  const child = spawn(
    bashPath(),
    argv.map((arg) => Buffer.from(arg, 'latin1').toString()),
    {
      stdio: [fd, 'pipe', 'pipe'],
      env: {},
    },
  );
  const stop = () => child.kill('SIGKILL');
  void halt.then(stop);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
  return new Promise((resolve) => {
    child.on('error', () => resolve({ status: 1, values: [], stderr: '' }));
    child.on('close', () => {
      const fields = Buffer.concat(out).toString('latin1').split('\0');
      const status = Number(fields[0] || 1);
      resolve({ status, values: fields.slice(1, -1), stderr: Buffer.concat(err).toString('latin1') });
    });
  });
}
