export interface Shebang {
  interpreter: string;
  arg: string | null;
}

// Linux's fs/binfmt_script.c on the first 256 bytes: the interpreter ends at space, tab or NUL, and
// the rest of the line (trimmed) is one argument. Returns null where the kernel answers ENOEXEC
// (no interpreter, or one cut off by the 256 bytes); bash then runs the file as a script.
export function parseShebang(bytes: Buffer): Shebang | null {
  const buf = Buffer.alloc(256);
  bytes.copy(buf, 0, 0, 256);
  if (buf[0] !== 0x23 || buf[1] !== 0x21) return null;
  const spacetab = (i: number) => buf[i] === 0x20 || buf[i] === 0x09;
  const find = (from: number, to: number, test: (i: number) => boolean) => {
    for (let i = from; i < to; i++) if (test(i)) return i;
    return -1;
  };
  const nonSpacetab = (i: number) => !spacetab(i);
  const terminator = (i: number) => spacetab(i) || buf[i] === 0;
  const nul = buf.indexOf(0);
  let end = buf.subarray(0, nul === -1 ? 256 : nul).indexOf(0x0a);
  if (end === -1) {
    const start = find(2, 255, nonSpacetab);
    if (start === -1 || find(start, 255, terminator) === -1) return null;
    end = 255;
  }
  while (end > 2 && spacetab(end - 1)) end--;
  const name = find(2, end, nonSpacetab);
  if (name === -1) return null;
  const sep = find(name, end, terminator);
  const argStart = sep !== -1 && buf[sep] !== 0 ? find(sep, end, nonSpacetab) : -1;
  const text = (from: number, to: number) => {
    const stop = buf.indexOf(0, from);
    return buf.toString('utf8', from, stop !== -1 && stop < to ? stop : to);
  };
  return {
    interpreter: text(name, sep === -1 ? end : sep),
    arg: argStart === -1 ? null : text(argStart, end),
  };
}
