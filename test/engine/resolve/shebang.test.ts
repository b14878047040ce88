import { describe, expect, it } from 'vitest';
import { parseShebang } from '../../../src/engine/resolve/shebang.js';

// The kernel's reading of a #! line (fs/binfmt_script.c), on bytes alone.
const parse = (text: string | Buffer) => parseShebang(typeof text === 'string' ? Buffer.from(text) : text);

describe('parseShebang', () => {
  it('returns null for a file that does not start with #!', () => {
    expect(parse('echo hi\n')).toBeNull();
    expect(parse(' #!/bin/sh\n')).toBeNull();
    expect(parse('')).toBeNull();
  });

  it('splits the interpreter from one argument at the first space or tab', () => {
    expect(parse('#!/bin/sh\nexit 0\n')).toEqual({ interpreter: '/bin/sh', arg: null });
    expect(parse('#! /usr/bin/python3 -u\n')).toEqual({ interpreter: '/usr/bin/python3', arg: '-u' });
    expect(parse('#!/bin/sh\t-e\n')).toEqual({ interpreter: '/bin/sh', arg: '-e' });
  });

  it('keeps the whole rest of the line as one argument, trimming only its ends', () => {
    expect(parse('#!/usr/bin/env sh -e  \t\n')).toEqual({ interpreter: '/usr/bin/env', arg: 'sh -e' });
    expect(parse('#!/usr/bin/env -S python3 -u -X dev\n')).toEqual({
      interpreter: '/usr/bin/env',
      arg: '-S python3 -u -X dev',
    });
  });

  it('keeps a carriage return, which the kernel treats as part of the name', () => {
    expect(parse('#!/bin/sh\r\nexit 0\r\n')).toEqual({ interpreter: '/bin/sh\r', arg: null });
  });

  it('ends the line at a NUL byte', () => {
    expect(parse(Buffer.from('#!/bin/sh\0garbage\n'))).toEqual({ interpreter: '/bin/sh', arg: null });
  });

  it('gives an empty interpreter for a bare #! at the end of the file', () => {
    expect(parse('#!')).toEqual({ interpreter: '', arg: null });
    // Only blanks after #!: the kernel answers ENOEXEC and bash runs the file as a script.
    expect(parse('#!   \n')).toBeNull();
  });

  it('reads only 256 bytes: a long argument is cut, a cut-off interpreter name is refused', () => {
    const longArg = parse(`#!/bin/sh ${'a'.repeat(300)}\n`);
    expect(longArg?.interpreter).toBe('/bin/sh');
    expect(longArg?.arg).toBe('a'.repeat(245));
    expect(parse(`#!/${'x'.repeat(300)}\n`)).toBeNull();
  });
});
