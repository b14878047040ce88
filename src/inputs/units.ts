import { RequestError } from '../errors.js';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

// Durations as users write them: 250ms, 5s, 1.5s, 2m, 1h. A bare number is refused: its unit is a guess.
export function parseDuration(text: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!match) {
    throw new RequestError(
      'usage.duration',
      `${what}: "${text}" is not a duration; write a number with a unit: 250ms, 5s, 2m, 1h`,
    );
  }
  const value = Number(match[1]) * DURATION_UNITS[match[2]!]!;
  return Math.round(value);
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
};

// Sizes: 64KiB, 10MB, 1GiB, 512B, or a bare byte count. KB/MB/GB are decimal, KiB/MiB/GiB (and K/M/G) binary.
export function parseSize(text: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? (match[2] ?? '').toLowerCase() : '';
  const factor = unit === '' ? 1 : SIZE_UNITS[unit];
  if (!match || factor === undefined) {
    throw new RequestError(
      'usage.size',
      `${what}: "${text}" is not a size; write bytes or a number with a unit: 64KiB, 10MB, 1GiB`,
    );
  }
  return Math.floor(Number(match[1]) * factor);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m${Math.round((ms % 60_000) / 1000)}s`;
}
