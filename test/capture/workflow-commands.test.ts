import { describe, expect, it } from 'vitest';
import { LinePrefixer, NO_NEWLINE_MARK } from '../../src/capture/line-prefixer.js';
import { StreamMasker } from '../../src/capture/mask.js';
import { addedMask, isWorkflowCommand, MaskCommandScanner } from '../../src/capture/workflow-commands.js';

describe('the lines the GitHub runner reads as commands', () => {
  it('are "::name ...::" after leading blanks, and "##[name ...]" anywhere in a line', () => {
    for (const line of [
      '::warning::x',
      '  ::error file=a.c,line=3,col=1::broken',
      '::endgroup::',
      '::add-mask::value',
      '::MY-RESUME-TOKEN::',
      '##[error]old form',
      'npm ERR! ##[warning]in the middle',
    ]) {
      expect(isWorkflowCommand(line), line).toBe(true);
    }
    for (const line of [
      '',
      'std::vector<int>',
      '::1 is localhost',
      'a ::warning::x',
      ':::: x',
      '##[ x]',
      '##[warning',
    ]) {
      expect(isWorkflowCommand(line), line).toBe(false);
    }
  });

  it('registers the value of add-mask in both forms, decoded as the runner decodes it', () => {
    expect(addedMask('::add-mask::s3cr3t')).toBe('s3cr3t');
    expect(addedMask('  ::ADD-MASK::a%25b%0Ac')).toBe('a%b\nc');
    expect(addedMask('::add-mask::tail\r')).toBe('tail');
    expect(addedMask('log: ##[add-mask]x%3By%5D')).toBe('x;y]');
    // The runner refuses a value of blanks, and reads other commands as other commands.
    expect(addedMask('::add-mask::   ')).toBeNull();
    expect(addedMask('::warning::add-mask')).toBeNull();
    expect(addedMask('echo ::add-mask::x')).toBeNull();
  });
});

describe('MaskCommandScanner', () => {
  const split = (scanner: MaskCommandScanner, text: string) =>
    scanner.split(Buffer.from(text)).map((piece) => [piece.bytes.toString(), piece.mask]);

  it('cuts a chunk right after an add-mask line, with the value', () => {
    const scanner = new MaskCommandScanner();
    expect(split(scanner, 'a\n::add-mask::v1\nafter v1\n')).toEqual([
      ['a\n', null],
      ['::add-mask::v1\n', 'v1'],
      ['after v1\n', null],
    ]);
  });

  it('finds a command whose line arrives in several chunks', () => {
    const scanner = new MaskCommandScanner();
    expect(split(scanner, 'x\n:')).toEqual([['x\n:', null]]);
    expect(split(scanner, ':add-ma')).toEqual([[':add-ma', null]]);
    expect(split(scanner, 'sk::secret-value\nrest')).toEqual([
      ['sk::secret-value\n', 'secret-value'],
      ['rest', null],
    ]);
  });

  it('passes a chunk without "::" or "##[" whole', () => {
    const scanner = new MaskCommandScanner();
    expect(split(scanner, 'plain\ntext\n')).toEqual([['plain\ntext\n', null]]);
  });
});

describe('a masker whose list of secrets grows', () => {
  it('masks a value added to the list from the next chunk on', () => {
    const secrets: string[] = [];
    const masker = new StreamMasker(secrets);
    expect(masker.push(Buffer.from('value one\n')).toString()).toBe('value one\n');
    secrets.push('value');
    expect(masker.push(Buffer.from('value two\n')).toString()).toBe('*** two\n');
  });
});

describe('LinePrefixer with commands and partial lines', () => {
  it('passes command lines without the prefix', () => {
    const prefixer = new LinePrefixer('[cc] ', 64, { passCommands: true });
    const out = prefixer.push(Buffer.from('one\n::warning::x\n##[error]y\n')).toString();
    expect(out).toBe('[cc] one\n::warning::x\n##[error]y\n');
    expect(prefixer.push(Buffer.from('::error::spl')).toString()).toBe('');
    expect(prefixer.push(Buffer.from('it\n')).toString()).toBe('::error::split\n');
  });

  it('shows a held line before its newline, and the rest of it without a second prefix', () => {
    const prefixer = new LinePrefixer('[sh] ');
    expect(prefixer.push(Buffer.from('Password: ')).toString()).toBe('');
    expect(prefixer.showPartial().toString()).toBe('[sh] Password: ');
    expect(prefixer.push(Buffer.from('ok\nnext\n')).toString()).toBe('ok\n[sh] next\n');
  });

  it('prefixes the rest of a shown line again once another stage ended it', () => {
    const prefixer = new LinePrefixer('[sh] ');
    prefixer.push(Buffer.from('Password: '));
    prefixer.showPartial();
    prefixer.broken();
    expect(prefixer.push(Buffer.from('ok\n')).toString()).toBe('[sh] ok\n');
  });

  it('says that a shown line never got its newline when the stream ends', () => {
    const prefixer = new LinePrefixer('[sh] ');
    prefixer.push(Buffer.from('Continue? [y/N] '));
    prefixer.showPartial();
    expect(prefixer.flush().toString()).toBe(`${NO_NEWLINE_MARK}\n`);
  });
});
