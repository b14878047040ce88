import { EMPTY } from './cut-points.js';

export const MASK = '***';
const MASK_BYTES = Buffer.from(MASK);

// Names that look secret, matched on the upper-cased variable name. AUTH counts only as a word of
// its own (AUTH, OAUTH, AUTHN, AUTHZ, AUTHORIZATION), so GIT_AUTHOR_NAME is not a secret; TOKEN
// does not count in TOKENIZER (TOKENIZERS_PARALLELISM); a name ending in _KEY (STRIPE_KEY,
// SSH_KEY) does. PWD and OLDPWD are directories, not passwords, and never match.
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /TOKEN(?!IZ)/,
  /SECRET/,
  /PASSWORD/,
  /PASSWD/,
  /PASSPHRASE/,
  /CREDENTIAL/,
  /PRIVATE_?KEY/,
  /API_?KEY/,
  /ACCESS_?KEY/,
  /SESSION_?KEY/,
  /SIGNING_?KEY/,
  /ENCRYPTION_?KEY/,
  /_KEY$/,
  /COOKIE/,
  /(?:^|[^A-Z])O?AUTH(?:N|Z|ORIZATION)?(?:[^A-Z]|$)/,
];

// Shorter values of secret-looking variables are left alone: "true", "1", "dev" would otherwise
// be starred everywhere they appear.
export const MIN_SECRET_LENGTH = 6;

export function looksSecret(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAME_PATTERNS.some((pattern) => pattern.test(upper));
}

// The values to mask for one run: secret-looking variables with values of 6 characters or more,
// plus every variable named with --mask (any non-empty value). Longest first, without duplicates.
export function secretValuesFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  extraNames: readonly string[],
): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH && looksSecret(name)) values.add(value);
  }
  for (const name of extraNames) {
    const value = env[name];
    if (value !== undefined && value.length >= 1) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

interface Scan {
  out: Buffer;
  // Bytes from here on are held back: they may be the start of a secret.
  holdFrom: number;
}

// Replaces every secret in a byte stream with ***, also when a secret arrives split across two
// chunks. Only bytes that could be the start of a secret are held back (at most the longest secret
// minus one); everything else is returned at once. Where secrets overlap, the leftmost match wins,
// and the longest one at the same position.
export class StreamMasker {
  private readonly secrets: Buffer[];
  private readonly longest: number;
  private readonly firstBytes = new Uint8Array(256);
  private held: Buffer = EMPTY;

  constructor(secrets: readonly string[]) {
    const unique = new Set(secrets.filter((secret) => secret.length > 0));
    this.secrets = [...unique].map((secret) => Buffer.from(secret)).sort((a, b) => b.length - a.length);
    this.longest = this.secrets[0]?.length ?? 0;
    for (const secret of this.secrets) this.firstBytes[secret[0]!] = 1;
  }

  get heldBytes(): number {
    return this.held.length;
  }

  push(chunk: Buffer): Buffer {
    if (this.secrets.length === 0) return chunk;
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const { out, holdFrom } = this.scan(data, false);
    this.held = holdFrom === data.length ? EMPTY : Buffer.from(data.subarray(holdFrom));
    return out;
  }

  // The stream ended: what was held back cannot become a secret any more.
  flush(): Buffer {
    const data = this.held;
    this.held = EMPTY;
    return data.length === 0 ? EMPTY : this.scan(data, true).out;
  }

  private scan(data: Buffer, final: boolean): Scan {
    const n = data.length;
    let holdFrom = final ? n : this.potentialStart(data, 0);
    const next = this.secrets.map((secret) => data.indexOf(secret));
    const parts: Buffer[] = [];
    let cursor = 0;
    for (;;) {
      let best = -1;
      let bestAt = n;
      for (let i = 0; i < this.secrets.length; i += 1) {
        if (next[i]! !== -1 && next[i]! < cursor) next[i] = data.indexOf(this.secrets[i]!, cursor);
        // Secrets are sorted longest first, so the first one found at a position is the longest.
        if (next[i]! !== -1 && next[i]! < bestAt) {
          best = i;
          bestAt = next[i]!;
        }
      }
      if (best === -1 || bestAt >= holdFrom) break;
      if (bestAt > cursor) parts.push(data.subarray(cursor, bestAt));
      parts.push(MASK_BYTES);
      cursor = bestAt + this.secrets[best]!.length;
      if (cursor > holdFrom) holdFrom = final ? n : this.potentialStart(data, cursor);
    }
    if (parts.length === 0) return { out: data.subarray(0, holdFrom), holdFrom };
    if (holdFrom > cursor) parts.push(data.subarray(cursor, holdFrom));
    return { out: Buffer.concat(parts), holdFrom: Math.max(holdFrom, cursor) };
  }

  // The first position >= from where the rest of data is a proper prefix of some secret, else the
  // length of data. Only the last longest-1 bytes can qualify.
  private potentialStart(data: Buffer, from: number): number {
    const n = data.length;
    for (let q = Math.max(from, n - this.longest + 1); q < n; q += 1) {
      if (this.firstBytes[data[q]!] === 0) continue;
      const rest = n - q;
      for (const secret of this.secrets) {
        if (secret.length <= rest) break;
        if (secret.compare(data, q, n, 0, rest) === 0) return q;
      }
    }
    return n;
  }
}

export function maskBuffer(buf: Buffer, secrets: readonly string[]): Buffer {
  const masker = new StreamMasker(secrets);
  const head = masker.push(buf);
  const rest = masker.flush();
  return rest.length === 0 ? head : Buffer.concat([head, rest]);
}

export function maskText(text: string, secrets: readonly string[]): string {
  if (!secrets.some((secret) => secret.length > 0 && text.includes(secret))) return text;
  return maskBuffer(Buffer.from(text), secrets).toString();
}

// How many leading bytes of buf[start, length) may be the end of a secret whose beginning was cut
// off just before `start` (`prev` is the byte before the cut, -1 when unknown). The keeper drops
// them so that no piece of a secret shows next to a cut.
export function secretEndAt(buf: Buffer, start: number, prev: number, secrets: readonly string[]): number {
  let drop = 0;
  for (const value of secrets) {
    const secret = Buffer.from(value);
    const max = Math.min(secret.length - 1, buf.length - start);
    for (let k = max; k > drop; k -= 1) {
      const before = secret[secret.length - k - 1]!;
      if (prev !== -1 && before !== prev) continue;
      if (secret.compare(buf, start, start + k, secret.length - k, secret.length) === 0) {
        drop = k;
        break;
      }
    }
  }
  return drop;
}
