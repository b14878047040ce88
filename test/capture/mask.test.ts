import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  looksSecret,
  maskBuffer,
  maskText,
  StreamMasker,
  secretEndAt,
  secretValuesFromEnv,
} from '../../src/capture/mask.js';

// Leftmost match, longest at the same position: the obvious quadratic version, to compare with.
function referenceMask(text: string, secrets: string[]): string {
  const sorted = [...secrets].filter(Boolean).sort((a, b) => b.length - a.length);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const match = sorted.find((secret) => text.startsWith(secret, i));
    if (match) {
      out += '***';
      i += match.length;
    } else {
      out += text[i];
      i += 1;
    }
  }
  return out;
}

function maskInChunks(data: Buffer, secrets: string[], cuts: number[]): string {
  const masker = new StreamMasker(secrets);
  const parts: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    parts.push(masker.push(data.subarray(from, Math.max(from, cut))));
    from = Math.max(from, cut);
  }
  parts.push(masker.push(data.subarray(from)), masker.flush());
  return Buffer.concat(parts).toString();
}

describe('looksSecret', () => {
  it('recognises the usual secret names in any case', () => {
    for (const name of [
      'GITHUB_TOKEN',
      'npm_token',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_ACCESS_KEY_ID',
      'DB_PASSWORD',
      'MYSQL_PASSWD',
      'GPG_PASSPHRASE',
      'OPENAI_API_KEY',
      'SENDGRIDAPIKEY',
      'SSH_PRIVATE_KEY',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'HTTP_AUTHORIZATION',
      'NPM_AUTH',
      'OAUTH_CLIENT',
      'STRIPE_KEY',
      'SESSION_KEY',
      'SESSION_COOKIE',
    ]) {
      expect(looksSecret(name), name).toBe(true);
    }
  });

  it('leaves ordinary names alone, including AUTHOR, TOKENIZER, PWD and paths to secrets', () => {
    for (const name of [
      'SSH_AUTH_SOCK',
      'POSTGRES_PASSWORD_FILE',
      'GIT_ASKPASS_PATH',
      'GIT_AUTHOR_NAME',
      'GIT_AUTHOR_EMAIL',
      'TOKENIZERS_PARALLELISM',
      'PWD',
      'OLDPWD',
      'HOME',
      'PATH',
      'KEYBOARD_LAYOUT',
      'MONKEY',
    ]) {
      expect(looksSecret(name), name).toBe(false);
    }
  });
});

describe('secretValuesFromEnv', () => {
  it('takes secret-looking values of 6 characters or more and named ones of any length, longest first', () => {
    const env = {
      GITHUB_TOKEN: 'ghp_abcdef123456',
      DB_PASSWORD: 'short',
      HOME: '/home/user',
      SHORT_ONE: 'xy',
      MY_API_KEY: 'ghp_abcdef123456',
      UNSET_SECRET: undefined,
    };
    expect(secretValuesFromEnv(env, ['SHORT_ONE', 'NOT_THERE', 'HOME'])).toEqual([
      'ghp_abcdef123456',
      '/home/user',
      'xy',
    ]);
  });

  it('ignores empty values, even when named', () => {
    expect(secretValuesFromEnv({ EMPTY: '' }, ['EMPTY'])).toEqual([]);
  });
});

describe('StreamMasker', () => {
  it('masks a secret split across two chunks', () => {
    const masker = new StreamMasker(['s3cr3t-value']);
    const first = masker.push(Buffer.from('login with s3cr3t'));
    expect(first.toString()).toBe('login with ');
    const second = masker.push(Buffer.from('-value ok\n'));
    expect(second.toString()).toBe('*** ok\n');
    expect(masker.flush().length).toBe(0);
  });

  it('delays only bytes that could start a secret', () => {
    const masker = new StreamMasker(['abcdef']);
    expect(masker.push(Buffer.from('hello world\n')).toString()).toBe('hello world\n');
    expect(masker.push(Buffer.from('xyzab')).toString()).toBe('xyz');
    expect(masker.heldBytes).toBe(2);
    expect(masker.push(Buffer.from('X')).toString()).toBe('abX');
    expect(masker.heldBytes).toBe(0);
  });

  it('holds back at most the longest secret minus one byte', () => {
    const secret = 'a'.repeat(10);
    const masker = new StreamMasker([secret, 'abc']);
    masker.push(Buffer.from('bbbb'));
    for (let i = 0; i < 100; i += 1) {
      masker.push(Buffer.from('a'.repeat(i % 7)));
      expect(masker.heldBytes).toBeLessThanOrEqual(secret.length - 1);
    }
  });

  it('passes a partial secret at the end of the stream through on flush', () => {
    const masker = new StreamMasker(['password123']);
    expect(masker.push(Buffer.from('ends with passw')).toString()).toBe('ends with ');
    expect(masker.flush().toString()).toBe('passw');
  });

  it('masks the longest secret when secrets overlap', () => {
    expect(maskText('key=abcdef;', ['abc', 'abcdef'])).toBe('key=***;');
    expect(maskText('key=abcxyz;', ['abc', 'abcdef'])).toBe('key=***xyz;');
  });

  it('masks a shorter secret inside a longer candidate that did not complete', () => {
    const masker = new StreamMasker(['abcdefgh', 'cd']);
    const out = Buffer.concat([
      masker.push(Buffer.from('xxabcd')),
      masker.push(Buffer.from('ZZ')),
      masker.flush(),
    ]);
    expect(out.toString()).toBe('xxab***ZZ');
  });

  it('masks multibyte secrets split inside a character', () => {
    const secret = 'pässwörd-€';
    const data = Buffer.from(`x ${secret} y`);
    for (let cut = 0; cut <= data.length; cut += 1) {
      expect(maskInChunks(data, [secret], [cut])).toBe('x *** y');
    }
  });

  it('returns chunks untouched when there are no secrets', () => {
    const masker = new StreamMasker([]);
    const chunk = Buffer.from('anything');
    expect(masker.push(chunk)).toBe(chunk);
  });

  it('gives the same result however the stream is chunked', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '.', '\n', 'é', '|', '\\'), maxLength: 200 }),
        fc.array(
          fc.string({ unit: fc.constantFrom('a', 'b', '.', 'é', '|', '\\'), minLength: 1, maxLength: 6 }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.array(fc.nat({ max: 400 }), { maxLength: 8 }),
        (text, secrets, cuts) => {
          const data = Buffer.from(text);
          expect(maskInChunks(data, secrets, cuts)).toBe(referenceMask(text, secrets));
        },
      ),
    );
  });
});

describe('maskText and maskBuffer', () => {
  it('mask every occurrence', () => {
    expect(maskText('a TOKEN b TOKEN', ['TOKEN'])).toBe('a *** b ***');
    expect(maskBuffer(Buffer.from('xTOKENx'), ['TOKEN']).toString()).toBe('x***x');
  });

  it('return the text itself when no secret occurs', () => {
    expect(maskText('nothing here', ['secret'])).toBe('nothing here');
  });
});

describe('secretEndAt', () => {
  it('finds the end of a secret whose beginning was cut off', () => {
    expect(secretEndAt(Buffer.from('defgh rest'), 0, -1, ['abcdefgh'])).toBe(5);
  });

  it('ignores a match that the byte before the cut rules out', () => {
    // "2 errors" after a line break cannot be the end of "hunter2": that would need "r" before it.
    expect(secretEndAt(Buffer.from('2 errors'), 0, 0x0a, ['hunter2'])).toBe(0);
    expect(secretEndAt(Buffer.from('2 errors'), 0, 'r'.charCodeAt(0), ['hunter2'])).toBe(1);
  });
});
