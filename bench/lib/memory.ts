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

/** CPU seconds `pid` has used so far (user and system, from /proc/<pid>/stat), or undefined when it cannot be read. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
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
