// Resident memory of a server under test, read from /proc/<pid>/status (Linux); elsewhere nothing
// is sampled and the reports say so.
import { readFileSync } from 'node:fs';

export interface RssSample {
  /** Seconds since the measurement began. */
  second: number;
  /** VmRSS in kilobytes. */
  kb: number;
}

/** VmRSS of `pid` in kilobytes, or undefined when it cannot be read (gone, not Linux). */
export function residentKb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The median of the samples taken from second `from` to second `to` (undefined when there are none). */
export function medianKb(samples: RssSample[], from: number, to: number): number | undefined {
  const kb = samples
    .filter((s) => s.second >= from && s.second <= to)
    .map((s) => s.kb)
    .sort((a, b) => a - b);
  return kb.length ? kb[Math.floor(kb.length / 2)] : undefined;
}

/** The highest sample, in megabytes. */
export const peakMb = (samples: RssSample[] | undefined) => (samples?.length ? Math.max(...samples.map((s) => s.kb)) / 1024 : undefined);

export const mb = (kb: number) => kb / 1024;
