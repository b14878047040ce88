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
const MIN_SECRET_LENGTH = 6;

// Names of places, not secrets: SSH_AUTH_SOCK, POSTGRES_PASSWORD_FILE, KEYCHAIN_PATH. Masking
// them would hide the path in the very error message that says what could not be read.
const LOCATION_NAME = /_(?:SOCK|FILE|PATH|DIR)$/;

export function looksSecret(name: string): boolean {
  const upper = name.toUpperCase();
  return !LOCATION_NAME.test(upper) && SECRET_NAME_PATTERNS.some((pattern) => pattern.test(upper));
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

// The secrets of one run, from the environment its stages get (`base`, usually safe-run's own,
// under each stage's additions) and its --mask names. Every place that prints or stores something
// about the run masks with this one set.
export function planSecrets(
  plan: {
    stages: readonly { env: Readonly<Record<string, string>> }[];
    settings: { mask: readonly string[] };
  },
  base: Readonly<Record<string, string | undefined>>,
): string[] {
  const merged: Record<string, string | undefined> = Object.assign(
    {},
    base,
    ...plan.stages.map((s) => s.env),
  );
  return secretValuesFromEnv(merged, plan.settings.mask);
}

interface Scan {
  out: Buffer;
  // Bytes from here on are held back: they may be the start of a secret.
  holdFrom: number;
}

// One secret as bytes, with its KMP border table: border[k] is the length of the longest proper
// prefix of secret[0, k) that is also a suffix of it.
interface Needle {
  bytes: Buffer;
  border: Int32Array;
}

function toNeedle(secret: string): Needle {
  const bytes = Buffer.from(secret);
  const border = new Int32Array(bytes.length + 1);
  for (let i = 1, k = 0; i < bytes.length; i += 1) {
    while (k > 0 && bytes[i] !== bytes[k]) k = border[k]!;
    if (bytes[i] === bytes[k]) k += 1;
    border[i + 1] = k;
  }
  return { bytes, border };
}

// Secrets are searched with one regular expression over the chunk read as latin1 (one character
// per byte, so string positions are byte positions): alternatives longest first make the leftmost
// match the longest one at its position, and one pass costs about the same for 1 or 30 secrets.
function toPattern(needles: readonly Needle[]): RegExp {
  const alternatives = needles.map((needle) =>
    needle.bytes.toString('latin1').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(alternatives.join('|'), 'g');
}

// Replaces every secret in a byte stream with ***, also when a secret arrives split across two
// chunks. Only bytes that could be the start of a secret are held back (at most the longest secret
// minus one); everything else is returned at once. Where secrets overlap, the leftmost match wins,
// and the longest one at the same position.
export class StreamMasker {
  private needles: Needle[] = [];
  private pattern: RegExp | null = null;
  private held: Buffer = EMPTY;
  // How many of `secrets` the needles hold: a list that grows (a stage's ::add-mask:: value, see
  // workflow-commands.ts) is read again before the next chunk.
  private known = -1;

  constructor(private readonly secrets: readonly string[]) {
    this.sync();
  }

  private sync(): void {
    if (this.known === this.secrets.length) return;
    this.known = this.secrets.length;
    const unique = [...new Set(this.secrets.filter((secret) => secret.length > 0))];
    this.needles = unique.map(toNeedle).sort((a, b) => b.bytes.length - a.bytes.length);
    this.pattern = this.needles.length > 0 ? toPattern(this.needles) : null;
  }

  get heldBytes(): number {
    return this.held.length;
  }

  push(chunk: Buffer): Buffer {
    this.sync();
    if (this.pattern === null) return chunk;
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const { out, holdFrom } = this.scan(this.pattern, data, false);
    this.held = holdFrom === data.length ? EMPTY : Buffer.from(data.subarray(holdFrom));
    return out;
  }

  // The stream ended: what was held back cannot become a secret any more.
  flush(): Buffer {
    this.sync();
    const data = this.held;
    this.held = EMPTY;
    return this.pattern === null || data.length === 0 ? EMPTY : this.scan(this.pattern, data, true).out;
  }

  private scan(pattern: RegExp, data: Buffer, final: boolean): Scan {
    const n = data.length;
    const text = data.toString('latin1');
    let holdFrom = final ? n : this.potentialStart(data, 0);
    const parts: Buffer[] = [];
    let cursor = 0;
    for (;;) {
      pattern.lastIndex = cursor;
      const match = pattern.exec(text);
      if (match === null || match.index >= holdFrom) break;
      if (match.index > cursor) parts.push(data.subarray(cursor, match.index));
      parts.push(MASK_BYTES);
      cursor = match.index + match[0].length;
      if (cursor > holdFrom) holdFrom = final ? n : this.potentialStart(data, cursor);
    }
    if (parts.length === 0) return { out: data.subarray(0, holdFrom), holdFrom };
    if (holdFrom > cursor) parts.push(data.subarray(cursor, holdFrom));
    return { out: Buffer.concat(parts), holdFrom: Math.max(holdFrom, cursor) };
  }

  // The first position >= from where the rest of data is a proper prefix of some secret, else the
  // length of data. A KMP pass over the last (length - 1) bytes per secret: linear, whatever the data.
  private potentialStart(data: Buffer, from: number): number {
    const n = data.length;
    let earliest = n;
    for (const { bytes, border } of this.needles) {
      const length = bytes.length;
      let k = 0;
      for (let i = Math.max(from, n - length + 1); i < n; i += 1) {
        const byte = data[i];
        while (k > 0 && bytes[k] !== byte) k = border[k]!;
        if (bytes[k] === byte) k += 1;
      }
      if (k > 0 && n - k < earliest) earliest = n - k;
    }
    return earliest;
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
