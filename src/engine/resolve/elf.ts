import { readdirSync } from 'node:fs';
import { isRunnableFile, readAt, statOf } from './file-checks.js';
import { type Inspection, RUNNABLE } from './inspection.js';
import { badInterpreter, unresolved } from './outcome.js';

// e_machine values each Node architecture runs natively, and names for the common ones.
const NATIVE: Record<string, { name: string; machines: number[] }> = {
  x64: { name: 'x86_64', machines: [62, 3] },
  ia32: { name: 'i386', machines: [3] },
  arm64: { name: 'aarch64', machines: [183, 40] },
  arm: { name: 'arm', machines: [40] },
  riscv64: { name: 'riscv64', machines: [243] },
  ppc64: { name: 'ppc64', machines: [21] },
  s390x: { name: 's390x', machines: [22] },
  loong64: { name: 'loongarch64', machines: [258] },
};
const MACHINES: Record<number, string> = {
  3: 'i386',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  22: 's390x',
  40: 'arm',
  62: 'x86_64',
  183: 'aarch64',
  243: 'riscv',
  258: 'loongarch',
};

export function isElf(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32BE(0) === 0x7f454c46;
}

// The checks after which the kernel would answer ENOEXEC, then the dynamic loader (PT_INTERP): a
// missing loader makes the kernel report ENOENT for the program itself, like a missing #! interpreter.
export function inspectElf(program: string, file: string, b: Buffer): Inspection {
  const is64 = b[4] === 2;
  const le = b[5] === 1;
  if ((b[4] !== 1 && b[4] !== 2) || (b[5] !== 1 && b[5] !== 2) || b.length < (is64 ? 64 : 52)) {
    return unresolved(
      file,
      'ENOEXEC',
      'bad-format',
      126,
      `${program}: is a damaged or truncated ELF file; reinstall it`,
    );
  }
  const u16 = (buf: Buffer, at: number) => (le ? buf.readUInt16LE(at) : buf.readUInt16BE(at));
  const u32 = (buf: Buffer, at: number) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const word = (buf: Buffer, at: number) =>
    is64 ? Number(le ? buf.readBigUInt64LE(at) : buf.readBigUInt64BE(at)) : u32(buf, at);
  const type = u16(b, 16);
  if (type !== 2 && type !== 3) {
    const what = type === 1 ? 'an object file' : type === 4 ? 'a core dump' : 'not an executable';
    return unresolved(
      file,
      'ENOEXEC',
      'bad-format',
      126,
      `${program}: is an ELF file but ${what}, not a program; check the build output`,
    );
  }
  const machine = u16(b, 18);
  const native = NATIVE[process.arch];
  if (native !== undefined && !native.machines.includes(machine) && !hasForeignHandlers()) {
    const theirs = MACHINES[machine] ?? `machine type ${machine}`;
    const message = `${program}: is a program for ${theirs}, but this machine is ${native.name}; install the ${native.name} build`;
    return unresolved(file, 'ENOEXEC', 'bad-format', 126, message);
  }
  const phentsize = u16(b, is64 ? 54 : 42);
  const phnum = u16(b, is64 ? 56 : 44);
  if (phentsize < (is64 ? 56 : 32) || phnum > 4096) return RUNNABLE;
  const table = readAt(file, word(b, is64 ? 32 : 28), phentsize * phnum) ?? Buffer.alloc(0);
  for (let i = 0; i + phentsize <= table.length; i += phentsize) {
    if (u32(table, i) !== 3) continue;
    const text = readAt(
      file,
      word(table, i + (is64 ? 8 : 4)),
      Math.min(word(table, i + (is64 ? 32 : 16)), 4096),
    );
    const loader = text?.toString('utf8').replace(/\0.*$/s, '') ?? '';
    return inspectLoader(program, file, loader);
  }
  return RUNNABLE;
}

function inspectLoader(program: string, file: string, loader: string): Inspection {
  const st = statOf(loader);
  if (!('errno' in st) && isRunnableFile(loader, st.stats)) return RUNNABLE;
  const state = 'errno' in st ? 'does not exist' : 'is not usable';
  const message = `${program}: its ELF interpreter (dynamic loader) ${loader} ${state}; the program was built for another system (for example musl or another distribution), so install a build for this one`;
  return badInterpreter(file, 'errno' in st ? 127 : 126, loader, message);
}

// binfmt_misc handlers (qemu-user, wine...) may run foreign binaries; then the kernel decides, not us.
function hasForeignHandlers(): boolean {
  try {
    return readdirSync('/proc/sys/fs/binfmt_misc').some((name) => name !== 'register' && name !== 'status');
  } catch {
    return false;
  }
}
