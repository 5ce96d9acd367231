// The list commands (Dispatch's ephemeral lists): incidents, an incident's participants, tasks and
// workflow runs, the signals of a channel. They run in a job and answer through the command's
// response URL, so a slow list or a busy Slack never holds the command's acknowledgement. Each reads
// through the service the HTTP API lists with, as the caller: they see what they may see there.
import { listRecords } from '../crud/service.ts';
import type { IncidentReadMinimalT, IncidentReadT } from '../domains/incident/reader.ts';
import { getIncident, listIncidents } from '../domains/incident/service.ts';
import { signalGroup } from '../domains/signal/group.ts';
import { listTasks } from '../domains/task/service.ts';
import type { TaskReadT } from '../domains/task/schema.ts';
import { type ChatMessage, recordLink } from '../plugins/types.ts';
import { type Block, divider, mrkdwn, fields, header, link, note, section } from './blocks.ts';
import type { Flow, FlowContext } from './flow.ts';
import { personName } from './incident-flows.ts';
import { listQuery } from './options.ts';

/** Slack takes 50 blocks in a message: lists stop short of it and say so. */
const MAX_ITEMS = 20;

function message(title: string, items: Block[][], empty: string): ChatMessage {
  const shown = items.slice(0, MAX_ITEMS);
  const blocks: Block[] = [header(title)];
  shown.forEach((item, i) => {
    blocks.push(...item);
    if (i < shown.length - 1) blocks.push(divider);
  });
  if (items.length === 0) blocks.push(section(empty));
  if (items.length > shown.length) blocks.push(note(`${items.length - shown.length} more not shown; the web UI lists them all.`));
  return { text: title, blocks };
}

const incidentUrl = (f: FlowContext, name: string | null | undefined) =>
  name ? recordLink(f.env.settings.uiUrl, f.ctx.organization.slug, 'incident', name) : null;

export const listIncidentsFlow: Flow = {
  on: 'incident-if-any',
  ack: 'Fetching the list of incidents...',
  async reply(f) {
    // Active and Stable ones, and those closed in the last 24 hours; in an incident's channel, of its project only.
    const since = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    const current = {
      or: [
        { field: 'status', op: 'in', value: ['Active', 'Stable'] },
        {
          and: [
            { field: 'status', op: '==', value: 'Closed' },
            { field: 'closed_at', op: '>=', value: since },
          ],
        },
      ],
    };
    const filter = f.subject ? [current, { model: 'Project', field: 'id', op: '==', value: f.subject.projectId }] : [current];
    const page = await listIncidents(f.ctx, {
      ...listQuery(filter, ['reported_at']),
      'descending[]': [true],
      itemsPerPage: -1,
      'include[]': [],
      expand: false,
    });
    const items = (page.items as IncidentReadMinimalT[]).map((i) => [
      fields([
        `*${link(incidentUrl(f, i.name), i.name ?? String(i.id))}*\n${mrkdwn(i.title)}`,
        `*Commander*\n${mrkdwn(personName(i.commander))}`,
        `*Project*\n${mrkdwn(i.project.name)}`,
        `*Status*\n${i.status}`,
        `*Type*\n${mrkdwn(String(i.incident_type.name))}`,
        `*Severity*\n${mrkdwn(String(i.incident_severity.name))}`,
        `*Priority*\n${mrkdwn(String(i.incident_priority.name))}`,
      ]),
    ]);
    return message('List of Incidents', items, 'No incidents are active or stable, and none closed in the last 24 hours.');
  },
};

const incidentOf = (f: FlowContext) => getIncident(f.ctx, f.subject!.id) as Promise<IncidentReadT>;

export const listParticipantsFlow: Flow = {
  on: 'incident',
  ack: 'Fetching the list of incident participants...',
  async reply(f) {
    const i = await incidentOf(f);
    const items = i.participants
      .map((p) => ({ p, roles: p.participant_roles.filter((r) => !r.renounced_at).map((r) => r.role) }))
      .filter(({ roles }) => roles.length > 0)
      .map(({ p, roles }) => [
        fields([
          `*Name*\n${link(p.individual.weblink, personName(p))} (${mrkdwn(p.individual.email)})`,
          `*Team*\n${mrkdwn(p.team ?? 'Unknown')}${p.department ? `, ${mrkdwn(p.department)}` : ''}`,
          `*Location*\n${mrkdwn(p.location ?? 'Unknown')}`,
          `*Incident Role(s)*\n${mrkdwn(roles.join(', '))}`,
          `*Added Reason*\n${mrkdwn(p.added_reason ?? 'Unknown')}`,
        ]),
      ]);
    return message('Incident Participants', items, 'The incident has no active participants.');
  },
};

function taskList(tasks: TaskReadT[], title: string): ChatMessage {
  const blocks: Block[][] = [];
  for (const status of ['Open', 'Resolved'] as const) {
    const mine = tasks.filter((t) => t.status === status);
    blocks.push([section(`*${status} Incident Tasks*${mine.length ? '' : '\nNo tasks.'}`)]);
    for (const t of mine) {
      blocks.push([
        fields([
          `*Description:*\n${link(t.weblink, t.description ?? '')}`,
          `*Creator:*\n${mrkdwn(personName(t.creator))}`,
          `*Assignees:*\n${mrkdwn(t.assignees.map(personName).join(', ') || 'none')}`,
        ]),
      ]);
    }
  }
  return message(title, blocks, '');
}

async function tasksOf(f: FlowContext): Promise<TaskReadT[]> {
  const filter = [{ model: 'Incident', field: 'id', op: '==', value: f.subject!.id }];
  return (await listTasks(f.ctx, { ...listQuery(filter, ['created_at']), itemsPerPage: -1 }, [])).items as TaskReadT[];
}

export const listTasksFlow: Flow = {
  on: 'incident',
  ack: 'Fetching the list of incident tasks...',
  reply: async (f) => taskList(await tasksOf(f), 'Incident Tasks'),
};

const same = (a: string | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

export const listMyTasksFlow: Flow = {
  on: 'incident',
  ack: 'Fetching your incident tasks...',
  async reply(f) {
    const me = f.ctx.user.email;
    const tasks = (await tasksOf(f)).filter((t) => same(t.creator?.individual.email, me) || t.assignees.some((a) => same(a.individual.email, me)));
    return taskList(tasks, 'Your Incident Tasks');
  },
};

export const listWorkflowsFlow: Flow = {
  on: 'incident',
  ack: 'Fetching the list of workflows...',
  async reply(f) {
    const i = await incidentOf(f);
    const items = i.workflow_instances.map((w) => [
      section(
        [
          `*Name:* ${link(w.weblink, w.workflow.name)}`,
          `*Workflow Description:* ${mrkdwn(w.workflow.description ?? '')}`,
          `*Run Reason:* ${mrkdwn(w.run_reason ?? '')}`,
          `*Creator:* ${mrkdwn(personName(w.creator))}`,
          `*Status:* ${w.status ?? 'Submitted'}`,
          `*Artifacts:* ${w.artifacts.map((a) => link(a.weblink, a.name ?? 'artifact')).join(', ') || 'none'}`,
        ].join('\n'),
      ),
    ]);
    return message('Incident Workflows', items, 'No workflow has run for this incident.');
  },
};

export const listSignalsFlow: Flow = {
  on: 'none',
  ack: 'Fetching the list of signals...',
  async reply(f) {
    // Signal definitions whose conversation target is the channel the command was typed in.
    const name = f.inv.channelName ?? '';
    const filter = [{ field: 'conversation_target', op: 'in', value: [name, `#${name}`, f.inv.channelId ?? ''] }];
    const page = await listRecords(f.ctx, signalGroup, listQuery(filter, ['name']));
    const items = (page.items as { name: string; variant?: string | null; description?: string | null }[]).map((s) => [
      section(`*${mrkdwn(s.name)}*${s.variant ? ` (${mrkdwn(s.variant)})` : ''}${s.description ? `\n${mrkdwn(s.description)}` : ''}`),
    ]);
    return message('Signal Definition List', items, `There are no signals configured for ${mrkdwn(name ? `#${name}` : 'this channel')}.`);
  },
};
