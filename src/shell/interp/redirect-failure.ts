import type { OpenStop } from '../../engine/fifo-open.js';

// Why a redirection failed: an error as bash words it (with its errno code, EAMBIGUOUS for an
// ambiguous target), or a wait in the open of a FIFO that the run's time limit or a signal ended.
export type RedirectFailure =
  | { kind: 'error'; code: string; message: string }
  | { kind: 'stopped'; stop: OpenStop; reading?: true };
