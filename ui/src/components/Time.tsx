// Times are shown in UTC (what the team shares on a call), with the reader's local time on hover.
import { Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-24 17:05 UTC` */
export function utcText(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

export function localText(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`) : value;
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span>-</span>;
  return (
    <Tooltip label={`Local: ${localText(value)}`} withArrow openDelay={200}>
      <time dateTime={value} style={{ whiteSpace: 'nowrap' }}>
        {utcText(value)}
      </time>
    </Tooltip>
  );
}

/** A span of time as people say it at a glance: `47 min`, `5 h 3 min`, `3 d 4 h`. */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return hours % 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : `${Math.floor(hours / 24)} d`;
}

export const parseTime = (value: string) => new Date(value.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`).getTime();

/** Now, again every `every` ms, so that ages and elapsed times move on their own. */
export function useNow(every = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}

/** `12 min ago` (`just now` within the minute), with the time itself on hover. */
export function Age({ value, now }: { value: string; now: number }) {
  return (
    <Tooltip label={utcText(value)} withArrow openDelay={200}>
      <time dateTime={value} style={{ whiteSpace: 'nowrap' }}>
        {now - parseTime(value) < 60_000 ? 'just now' : `${durationText(now - parseTime(value))} ago`}
      </time>
    </Tooltip>
  );
}
