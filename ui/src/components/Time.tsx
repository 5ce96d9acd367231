// Times are shown in UTC (what the team shares on a call), with the reader's local time on hover.
import { Tooltip } from '@mantine/core';

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
