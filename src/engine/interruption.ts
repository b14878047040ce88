import type { Interruption, StopCause } from '../types.js';

// The cause a stage stopped by `interruption` is given: a signal to safe-run, or a stop asked for on
// the user's behalf (the text's kill, job_kill, the client's cancel, the text's end).
export function interruptionCause({ signal, by }: Interruption): StopCause {
  return by === undefined ? { kind: 'signal', signal } : { kind: 'requested', signal, by };
}
