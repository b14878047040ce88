import { randomHex } from '../random-hex.js';
import { openProcWindow, type ProcWindow } from './proc-window.js';

// Every stage's environment carries this variable; escaped processes keep it, so a sweep of /proc finds
// them after they have left their stage's process group and session.
export const MARKER_NAME = 'SAFE_RUN_ID';

export interface Marker {
  name: string;
  value: string;
  // Where the processes carrying it can be in /proc: the run's, opened when the marker is made.
  window?: ProcWindow | null;
}

// The marker of a run that starts now; close its window when the run is over.
export function createMarker(): Marker {
  return { name: MARKER_NAME, value: randomHex(8), window: openProcWindow() };
}

// The marker ends up in a grep pattern of the watchdog and in environment blocks; allowing only plain
// characters keeps both exact.
export function assertMarker(marker: Marker): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(marker.name)) {
    throw new TypeError(`marker name "${marker.name}" is not a plain environment variable name`);
  }
  if (!/^[A-Za-z0-9._-]+$/.test(marker.value)) {
    throw new TypeError(`marker value "${marker.value}" may only contain letters, digits, '.', '_' and '-'`);
  }
}

export function markerEntry(marker: Marker): string {
  return `${marker.name}=${marker.value}`;
}
