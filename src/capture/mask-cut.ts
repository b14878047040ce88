import { MASK, maskText } from './mask.js';

// Masks a piece of text cut out of something longer: whole secrets as maskText does, and at each
// cut the piece of a secret the cut left (the end of one right after a cut at the start, the start
// of one right before a cut at the end), so that no more than two characters of a secret show next to a cut.
export function maskCut(
  text: string,
  secrets: readonly string[],
  cut: { start: boolean; end: boolean },
): string {
  return maskPieces(maskText(text, secrets), secrets, cut);
}

// Masks text that shows values shortened with an ellipsis (`"ghp_12…"`, `sh -c '...`): the piece
// of a secret right before each ellipsis is masked too.
export function maskShortened(text: string, secrets: readonly string[]): string {
  if (!secrets.some((secret) => secret.length > 0)) return text;
  const parts = maskText(text, secrets).split(/(\u2026|\.\.\.)/);
  // Odd indices are the ellipses; each part before one was cut at its end.
  return parts
    .map((part, i) =>
      i % 2 === 0 && i < parts.length - 1 ? maskPieces(part, secrets, { start: false, end: true }) : part,
    )
    .join('');
}

function maskPieces(text: string, secrets: readonly string[], cut: { start: boolean; end: boolean }): string {
  let out = text;
  if (cut.end) {
    const k = longestPiece(
      secrets,
      (piece) => out.endsWith(piece),
      (secret, n) => secret.slice(0, n),
    );
    if (k > 0) out = `${out.slice(0, out.length - k)}${MASK}`;
  }
  if (cut.start) {
    const k = longestPiece(
      secrets,
      (piece) => out.startsWith(piece),
      (secret, n) => secret.slice(-n),
    );
    if (k > 0) out = `${MASK}${out.slice(k)}`;
  }
  return out;
}

// Pieces shorter than this are left: one or two characters say next to nothing about a secret, and
// matching them would star the end of ordinary text ("waiting..." when a secret starts with "g").
const MIN_PIECE = 3;

// The length of the longest proper piece (prefix or suffix, by `take`) of any secret that `found`
// accepts, at least MIN_PIECE long; 0 when none is.
function longestPiece(
  secrets: readonly string[],
  found: (piece: string) => boolean,
  take: (secret: string, n: number) => string,
): number {
  let best = MIN_PIECE - 1;
  for (const secret of secrets) {
    for (let n = secret.length - 1; n > best; n -= 1) {
      if (found(take(secret, n))) {
        best = n;
        break;
      }
    }
  }
  return best >= MIN_PIECE ? best : 0;
}
