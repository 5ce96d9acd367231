// What Muster says in an incident's channel or a case's thread: the record's summary when its room
// is made, then a message per change, report and reminder. Each is plain text (what every client
// and notification shows) and Slack Block Kit blocks; the buttons carry the action ids the chat
// endpoints answer (`incident-update`, `case-edit`, `case-escalate`, `case-resolve`, `case-join`),
// each with the record's id as its value.
//
// A case's thread lives in a channel its type names, read by people who may not open a Restricted
// case: its title and description are not told there (as notifications do). An incident's channel
// is its own, private for a Restricted one, and only its participants are invited.
import type { ChatMessage, Subject } from '../../plugins/types.ts';
import type { RecordChange } from '../lifecycle/events.ts';
import type { ReportType } from '../report/schema.ts';

/** A report posted to its incident's channel. */
/** Something the record now has that people open from its room: a document, its meeting, its files. */
export interface ResourceNote {
  /** What it is, as the room is told: "Incident document", "Meeting". */
  what: string;
  weblink: string;
}

export interface ReportNote {
  type: ReportType;
  /** Who wrote it (e-mail). */
  author: string;
  details: Record<string, string>;
}

/** A report reminder: which report is due, and since how many hours. */
export interface ReminderNote {
  report: 'tactical' | 'executive';
  hours: number;
}

// Slack's limits: a header's text, a section's text, a field's text.
const HEADER_MAX = 150;
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** Text as Slack's mrkdwn reads it literally: &, < and > escaped. */
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const plain = (text: string, max = HEADER_MAX) => ({ type: 'plain_text', text: clip(text, max), emoji: true });
const mrkdwn = (text: string, max = SECTION_MAX) => ({ type: 'mrkdwn', text: clip(text, max) });
const header = (text: string) => ({ type: 'header', text: plain(text) });
const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });
const fields = (pairs: [string, string | null][]) => ({
  type: 'section',
  fields: pairs.map(([label, value]) => mrkdwn(`*${label}*\n${esc(value ?? 'none')}`, FIELD_MAX)),
});
const link = (s: Subject) => ({ type: 'context', elements: [mrkdwn(`<${s.weblink}|Open ${esc(labelOf(s))} in Muster>`)] });
const button = (actionId: string, text: string, s: Subject, style?: 'primary' | 'danger') => ({
  type: 'button',
  action_id: actionId,
  text: plain(text, 75),
  value: String(s.id),
  ...(style ? { style } : {}),
});

/** How a message names the record: its name, else its kind and id. */
export const labelOf = (s: Pick<Subject, 'kind' | 'id' | 'name'>) => s.name ?? `${s.kind} ${s.id}`;

const KIND = { incident: 'Incident', case: 'Case' } as const;
const OWNER = { incident: 'Commander', case: 'Assignee' } as const;

/** Whether the record's text stays out of where it is posted (a Restricted case's shared channel). */
const withheld = (s: Subject) => s.kind === 'case' && s.visibility === 'Restricted';
const titleOf = (s: Subject) => (withheld(s) ? '(restricted)' : s.title);

/** The record's state, as lines of text and as fields. */
function facts(s: Subject): [string, string | null][] {
  return [
    ['Status', s.status],
    ['Type', s.type],
    ['Priority', s.priority],
    ['Severity', s.severity],
    [OWNER[s.kind], s.owner],
    ['Reporter', s.reporter],
  ];
}

/** The channel's topic: the incident's title and its commander. */
export const topicOf = (s: Subject) => `${s.title} | Commander: ${s.owner ?? 'none'}`;

/**
 * The record's summary: the first message of an incident's channel (with the button that opens
 * the update dialog), and the root of a case's thread (with the case's buttons).
 */
export function summaryOf(s: Subject): ChatMessage {
  const heading = `${KIND[s.kind]} ${labelOf(s)}: ${titleOf(s)}`;
  const description = withheld(s) ? 'This case is Restricted: only its participants may open it.' : s.description;
  const text = [heading, '', description, '', ...facts(s).map(([k, v]) => `${k}: ${v ?? 'none'}`), '', s.weblink].join('\n');
  const actions =
    s.kind === 'incident'
      ? [button('incident-update', 'Update incident', s, 'primary')]
      : [
          button('case-edit', 'Edit', s),
          button('case-escalate', 'Escalate', s, 'danger'),
          button('case-resolve', 'Resolve', s, 'primary'),
          button('case-join', 'Join', s),
        ];
  return {
    text: clip(text, SECTION_MAX),
    blocks: [header(heading), section(esc(description)), fields(facts(s)), link(s), { type: 'actions', elements: actions }],
  };
}

const ASSESSED = { type: 'Type', severity: 'Severity', priority: 'Priority' } as const;

/** What an update changed, a line each; empty when it changed nothing a channel is told of. */
export function changeLines(s: Subject, change: RecordChange): string[] {
  const lines: string[] = [];
  if (change.status) lines.push(`Status changed from ${change.status.from} to ${change.status.to}`);
  for (const a of change.assessment ?? []) lines.push(`${ASSESSED[a]} changed to ${s[a] ?? 'none'}`);
  for (const r of change.roles ?? []) lines.push(r.from ? `${r.role}: ${r.to} (was ${r.from})` : `${r.role}: ${r.to}`);
  return lines;
}

/** A message of a few lines about the record, with its link. */
function note(s: Subject, heading: string, lines: string[]): ChatMessage {
  const body = lines.map(esc).join('\n');
  return {
    text: clip([heading, ...lines, s.weblink].join('\n'), SECTION_MAX),
    blocks: [section(`*${esc(heading)}*\n${body}`), link(s)],
  };
}

export const resourceOf = (s: Subject, r: ResourceNote): ChatMessage => note(s, r.what, [r.weblink]);

export const changeOf = (s: Subject, change: RecordChange): ChatMessage | null => {
  const lines = changeLines(s, change);
  return lines.length ? note(s, `${KIND[s.kind]} ${labelOf(s)} updated`, lines) : null;
};

const REPORT_FIELDS: Record<ReportType, [string, string][]> = {
  'Tactical Report': [
    ['conditions', 'Conditions'],
    ['actions', 'Actions'],
    ['needs', 'Needs'],
  ],
  'Executive Report': [
    ['current_status', 'Current status'],
    ['overview', 'Overview'],
    ['next_steps', 'Next steps'],
  ],
};

export function reportOf(s: Subject, r: ReportNote): ChatMessage {
  const parts = REPORT_FIELDS[r.type].map(([key, label]) => [label, r.details[key] ?? ''] as const);
  const heading = `${r.type} by ${r.author}`;
  return {
    text: clip([heading, ...parts.map(([k, v]) => `${k}: ${v}`), s.weblink].join('\n'), SECTION_MAX),
    blocks: [header(heading), ...parts.map(([k, v]) => section(`*${k}*\n${esc(v)}`)), link(s)],
  };
}

export const reminderOf = (s: Subject, r: ReminderNote): ChatMessage =>
  note(s, `The ${r.report} report is due`, [
    `The last one (or the incident's start) was ${r.hours} hour${r.hours === 1 ? '' : 's'} ago.`,
    `${OWNER[s.kind]}: ${s.owner ?? 'none'}`,
  ]);
