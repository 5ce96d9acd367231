// When a periodic task runs: every N seconds (slots aligned to the epoch, so every node agrees on
// them), or at a time of day, daily or on one weekday, in a time zone (MUSTER_SCHEDULER_TZ). Times
// of day go through croner, which handles daylight-saving changes.
import { Cron } from 'croner';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type Schedule = { every: number } | { at: string; weekday?: Weekday };

const AT = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;

/** Checks a schedule as declared; throws naming what is wrong. */
export function checkSchedule(name: string, s: Schedule): void {
  if ('every' in s) {
    if (!Number.isInteger(s.every) || s.every < 1) throw new Error(`task ${name}: every must be a whole number of seconds, at least 1`);
  } else if (!AT.test(s.at)) throw new Error(`task ${name}: at must be HH:MM:SS, got ${s.at}`);
}

/** A period as Python's timedelta prints it: `0:00:30`, `1:00:00`, `1 day, 0:00:00`, `7 days, 0:00:00`. */
export function periodText(s: Schedule): string {
  const seconds = 'every' in s ? s.every : s.weekday ? 7 * 86400 : 86400;
  const days = Math.floor(seconds / 86400);
  const rest = seconds % 86400;
  const hms = `${Math.floor(rest / 3600)}:${String(Math.floor((rest % 3600) / 60)).padStart(2, '0')}:${String(rest % 60).padStart(2, '0')}`;
  return days ? `${days} day${days > 1 ? 's' : ''}, ${hms}` : hms;
}

/** The time of day a task runs at, or blank. */
export const atText = (s: Schedule): string => ('at' in s ? s.at : '');

/** The first time the schedule fires strictly after `after`; `secondMs` shortens intervals for tests. */
export function nextSlot(s: Schedule, after: Date, timezone: string, secondMs = 1000): Date {
  if ('every' in s) {
    const ms = s.every * secondMs;
    return new Date((Math.floor(after.getTime() / ms) + 1) * ms);
  }
  const [h, m, sec] = s.at.split(':').map(Number);
  const dow = s.weekday ? String(WEEKDAYS.indexOf(s.weekday)) : '*';
  const cron = new Cron(`${sec} ${m} ${h} * * ${dow}`, { timezone, paused: true });
  const next = cron.nextRun(after);
  if (!next) throw new Error(`no next run for ${s.at}`);
  return next;
}

/** Whether `timezone` is one the platform knows (an IANA name such as Europe/Amsterdam, or UTC). */
export function knownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}
