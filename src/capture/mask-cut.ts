import { MASK, maskText } from './mask.js';

// Masks a piece of text cut out of something longer: whole secrets as maskText does, and at each
// cut the piece of a secret the cut left (the end of one right after a cut at the start, the start
// of one right before a cut at the end), so that no part of a secret shows next to a cut.
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
  const parts = maskText(text, secrets).split(/(…|\.\.\.)/);
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

// The length of the longest proper piece (prefix or suffix, by `take`) of any secret that `found`
// accepts; 0 when none does.
function longestPiece(
  secrets: readonly string[],
  found: (piece: string) => boolean,
  take: (secret: string, n: number) => string,
): number {
  let best = 0;
  for (const secret of secrets) {
    for (let n = secret.length - 1; n > best; n -= 1) {
      if (found(take(secret, n))) {
        best = n;
        break;
      }
    }
  }
  return best;
}
