// The incident commands that open a modal (BEHAVIOR §12, Dispatch's dialogs): report an incident,
// update it, assign a role, update a participant, add a timeline event, the tactical and executive
// reports, engage on-call, create a task, run a workflow. Each submission goes through the service
// the HTTP API uses for the same change; their side effects (the channel, notifications, on-call)
// are that service's jobs.
import { listRecords } from '../crud/service.ts';
import { createIncident, updateIncident } from '../domains/incident/flows.ts';
import { INCIDENT } from '../domains/incident/kind.ts';
import type { IncidentReadT } from '../domains/incident/reader.ts';
import type { IncidentUpdate } from '../domains/incident/schema.ts';
import { INCIDENT_STATUSES } from '../domains/incident/schema.ts';
import {
  addTimelineEntry,
  assignIncidentRole,
  createExecutiveReport,
  createTacticalReport,
  getIncident,
  updateParticipantReason,
} from '../domains/incident/service.ts';
import { PARTICIPANT_ROLES, type ParticipantRole } from '../domains/incident_role/roles.ts';
import { engageOncall } from '../domains/effects/oncall.ts';
import { serviceGroup } from '../domains/service/group.ts';
import { createTask } from '../domains/task/service.ts';
import { listWorkflows, runWorkflow } from '../domains/workflow/service.ts';
import type { Static } from '@sinclair/typebox';
import { checkboxes, dateTimePicker, mrkdwn, externalMultiSelect, externalSelect, note, type Option, staticSelect, textInput, usersSelect } from './blocks.ts';
import { type Flow, type FlowContext, inputError, Refused } from './flow.ts';
import { byId, listQuery, optionOf, projectOptions, tagOption } from './options.ts';

const incidentOf = (f: FlowContext) => getIncident(f.ctx, f.subject!.id) as Promise<IncidentReadT>;

export const personName = (p: { individual: { name?: string | null; email: string } } | null | undefined) =>
  p?.individual.name || p?.individual.email || 'Unknown';

const statusOptions: Option[] = INCIDENT_STATUSES.map((s) => ({ text: s, value: s }));

/** An update's body from the incident as it is: what the modal does not show is sent back unchanged, as the web UI does. */
export function updateBodyOf(i: IncidentReadT): Static<typeof IncidentUpdate> {
  return {
    title: i.title,
    description: i.description,
    resolution: i.resolution ?? undefined,
    status: i.status,
    visibility: i.visibility,
    incident_type: { id: i.incident_type.id },
    incident_priority: { id: i.incident_priority.id },
    incident_severity: { id: i.incident_severity.id },
    tags: i.tags.map((t) => ({ id: t.id })),
    terms: i.terms.map((t) => ({ id: t.id })),
    duplicates: i.duplicates.map((d) => ({ id: d.id })),
    incident_costs: i.incident_costs.map((c) => ({ id: c.id, amount: c.amount, incident_cost_type: { id: c.incident_cost_type.id } })),
    cases: i.cases.map((c) => ({ id: c.id })),
  } as Static<typeof IncidentUpdate>;
}

export const reportIncident: Flow = {
  on: 'none',
  ack: 'Opening a dialog to report an incident...',
  modal: {
    async open(f) {
      const projects = await projectOptions(f.ctx);
      return {
        title: 'Report Incident',
        submit: 'Report',
        blocks: [
          note('If you suspect an incident and need help, please fill out this form to the best of your abilities.'),
          textInput('title', 'Title', { placeholder: 'A brief explanatory title. You can change this later.' }),
          textInput('description', 'Description', { multiline: true, initial: f.inv.text, placeholder: 'A summary of what you know so far.' }),
          staticSelect('project', 'Project', projects.options, { initial: projects.initial }),
          externalSelect('incident_type', 'Type', { optional: true, hint: "Leave it empty for the project's default." }),
          externalSelect('incident_severity', 'Severity', { optional: true }),
          externalSelect('incident_priority', 'Priority', { optional: true }),
          externalMultiSelect('tags', 'Tags', { optional: true }),
        ],
      };
    },
    async submit(f, form) {
      const created = (await createIncident(f.ctx, {
        title: form.text('title') ?? '',
        description: form.text('description') ?? '',
        project: byId(form.id('project')),
        incident_type: byId(form.id('incident_type')),
        incident_severity: byId(form.id('incident_severity')),
        incident_priority: byId(form.id('incident_priority')),
        reporter: { individual: { email: f.ctx.user.email } },
        tags: form.choices('tags').map((id) => ({ id: Number(id) })),
      } as never)) as IncidentReadT;
      return {
        done: [
          'This is a confirmation that you have reported an incident with the following information. You will be invited to an incident Slack conversation shortly.',
          `*Name*: ${mrkdwn(created.name ?? String(created.id))}`,
          `*Title*: ${mrkdwn(created.title)}`,
          `*Commander*: ${mrkdwn(personName(created.commander))}`,
          `*Type*: ${mrkdwn(created.incident_type.name)}   *Severity*: ${mrkdwn(created.incident_severity.name)}   *Priority*: ${mrkdwn(created.incident_priority.name)}`,
        ].join('\n'),
      };
    },
  },
};

export const updateIncidentFlow: Flow = {
  on: 'incident',
  sensitive: true,
  ack: 'Opening a dialog to update incident information...',
  modal: {
    async open(f) {
      const i = await incidentOf(f);
      return {
        title: 'Update Incident',
        submit: 'Update',
        blocks: [
          note("Use this form to update the incident's details."),
          textInput('title', 'Title', { initial: i.title }),
          textInput('description', 'Description', { multiline: true, initial: i.description }),
          textInput('resolution', 'Resolution', { multiline: true, initial: i.resolution, optional: true }),
          staticSelect('status', 'Status', statusOptions, { initial: { text: i.status, value: i.status } }),
          externalSelect('incident_type', 'Type', { initial: optionOf(i.incident_type) }),
          externalSelect('incident_severity', 'Severity', { initial: optionOf(i.incident_severity) }),
          externalSelect('incident_priority', 'Priority', { initial: optionOf(i.incident_priority) }),
          externalMultiSelect('tags', 'Tags', { optional: true, initial: i.tags.map(tagOption) }),
        ],
      };
    },
    async submit(f, form) {
      const i = await incidentOf(f);
      const status = form.choice('status');
      await updateIncident(f.ctx, i.id, {
        ...updateBodyOf(i),
        title: form.text('title') ?? '',
        description: form.text('description') ?? '',
        resolution: form.text('resolution') ?? i.resolution ?? undefined,
        status: (INCIDENT_STATUSES as readonly string[]).includes(status ?? '') ? (status as IncidentReadT['status']) : i.status,
        incident_type: byId(form.id('incident_type')) ?? { id: i.incident_type.id },
        incident_severity: byId(form.id('incident_severity')) ?? { id: i.incident_severity.id },
        incident_priority: byId(form.id('incident_priority')) ?? { id: i.incident_priority.id },
        tags: form.choices('tags').map((id) => ({ id: Number(id) })),
      } as Static<typeof IncidentUpdate>);
      return { done: 'Incident updated successfully.' };
    },
  },
};

const ASSIGNABLE = PARTICIPANT_ROLES.filter((r): r is Exclude<ParticipantRole, 'Participant'> => r !== 'Participant');

export const assignRole: Flow = {
  on: 'incident',
  sensitive: true,
  ack: 'Opening a dialog to assign a role to a participant...',
  modal: {
    async open() {
      return {
        title: 'Assign Role',
        submit: 'Assign',
        blocks: [
          note('Assign a role to a participant. Note: The participant will be invited to the incident channel if they are not yet a member.'),
          usersSelect('participant', 'Participant'),
          staticSelect(
            'role',
            'Role',
            ASSIGNABLE.map((r) => ({ text: r, value: r })),
          ),
        ],
      };
    },
    async submit(f, form) {
      const role = ASSIGNABLE.find((r) => r === form.choice('role'));
      const user = form.user('participant');
      if (!role) return inputError('role', 'Choose a role.');
      const email = user ? (await f.api.user(user))?.email : undefined;
      if (!email) return inputError('participant', 'Slack shows no e-mail address for this person, which is how Muster tells who they are.');
      if (role === 'Incident Commander' || role === 'Reporter') {
        // The commander and the reporter change as an update through the API changes them.
        const i = await incidentOf(f);
        const person = { individual: { email } };
        await updateIncident(f.ctx, i.id, { ...updateBodyOf(i), ...(role === 'Reporter' ? { reporter: person } : { commander: person }) } as Static<
          typeof IncidentUpdate
        >);
      } else {
        await assignIncidentRole(f.ctx, f.subject!.id, email, role);
      }
      return { done: 'Role assigned successfully.' };
    },
  },
};

/** The incident's people who hold a role now, as options (value: the participant id). */
const activePeople = (i: IncidentReadT) =>
  i.participants
    .filter((p) => p.participant_roles.some((r) => !r.renounced_at))
    .map((p) => ({
      id: p.id,
      email: p.individual.email,
      text: personName(p) === p.individual.email ? p.individual.email : `${personName(p)} (${p.individual.email})`,
    }));

export const updateParticipant: Flow = {
  on: 'incident',
  ack: 'Opening a dialog to update participant information...',
  modal: {
    async open(f) {
      const people = activePeople(await incidentOf(f));
      return {
        title: 'Update Participant',
        submit: 'Update',
        blocks: [
          note('Use this form to update the reason why the participant was added to the incident.'),
          staticSelect(
            'participant',
            'Participant',
            people.map((p) => ({ text: p.text, value: String(p.id) })),
          ),
          textInput('added_reason', 'Reason added', { placeholder: 'Reason for addition' }),
        ],
      };
    },
    async submit(f, form) {
      const participant = form.id('participant');
      const reason = form.text('added_reason');
      if (!participant) return inputError('participant', 'Choose a participant.');
      if (!reason) return inputError('added_reason', 'Say why they take part.');
      await updateParticipantReason(f.ctx, f.subject!.id, participant, reason);
      return { done: 'Participant updated successfully.' };
    },
  },
};

export const addTimelineEvent: Flow = {
  on: 'incident',
  sensitive: true,
  ack: 'Opening a dialog to add an event to the incident timeline...',
  modal: {
    async open(f) {
      return {
        title: 'Add Timeline Event',
        submit: 'Add',
        blocks: [
          note("Use this form to add an event to the incident's timeline."),
          textInput('description', 'Description', { multiline: true, initial: f.inv.text }),
          dateTimePicker('started_at', 'When it happened', new Date(), { hint: 'In your own time zone.' }),
        ],
      };
    },
    async submit(f, form) {
      const description = form.text('description');
      if (!description) return inputError('description', 'Describe the event.');
      await addTimelineEntry(f.ctx, f.subject!.id, {
        description,
        at: form.dateTime('started_at') ?? new Date(),
        owner: f.name,
        source: 'Slack',
        type: 'Custom event',
      });
      return { done: 'Timeline event added successfully.' };
    },
  },
};

/** The details of the incident's latest report of a type, to start the next one from. */
const lastDetails = (report: IncidentReadT['last_tactical_report']) => (report?.details ?? {}) as Record<string, string | undefined>;

export const reportTactical: Flow = {
  on: 'incident',
  sensitive: true,
  ack: 'Opening a dialog to write a tactical report...',
  modal: {
    async open(f) {
      const i = await incidentOf(f);
      const last = lastDetails(i.last_tactical_report);
      const open = i.tasks.filter((t) => t.status !== 'Resolved').map((t) => `- ${t.description ?? ''}`);
      const actions = [last.actions, open.length ? `Outstanding Incident Tasks:\n${open.join('\n')}` : ''].filter(Boolean).join('\n\n');
      return {
        title: 'Tactical Report',
        submit: 'Create',
        blocks: [
          textInput('conditions', 'Conditions', { multiline: true, initial: last.conditions, placeholder: 'Current incident conditions' }),
          textInput('actions', 'Actions', { multiline: true, initial: actions, placeholder: 'Current incident actions' }),
          textInput('needs', 'Needs', { multiline: true, initial: last.needs, placeholder: 'Current incident needs' }),
        ],
      };
    },
    async submit(f, form) {
      await createTacticalReport(f.ctx, f.subject!.id, {
        conditions: form.text('conditions') ?? '',
        actions: form.text('actions') ?? '',
        needs: form.text('needs') ?? '',
      });
      return { done: 'Tactical report successfully created.' };
    },
  },
};

export const reportExecutive: Flow = {
  on: 'incident',
  sensitive: true,
  ack: 'Opening a dialog to write an executive report...',
  modal: {
    async open(f) {
      const last = lastDetails((await incidentOf(f)).last_executive_report);
      return {
        title: 'Executive Report',
        submit: 'Create',
        blocks: [
          textInput('current_status', 'Current Status', { multiline: true, initial: last.current_status, placeholder: 'Current status' }),
          textInput('overview', 'Overview', { multiline: true, initial: last.overview, placeholder: 'Overview' }),
          textInput('next_steps', 'Next Steps', { multiline: true, initial: last.next_steps, placeholder: 'Next steps' }),
        ],
      };
    },
    async submit(f, form) {
      await createExecutiveReport(f.ctx, f.subject!.id, {
        current_status: form.text('current_status') ?? '',
        overview: form.text('overview') ?? '',
        next_steps: form.text('next_steps') ?? '',
      });
      return { done: 'Executive report successfully created.' };
    },
  },
};

export const engageOncallFlow: Flow = {
  on: 'incident',
  ack: 'Opening a dialog to engage an oncall person...',
  modal: {
    async open(f) {
      const filter = [
        { model: 'Project', field: 'id', op: '==', value: f.subject!.projectId },
        { field: 'is_active', op: '==', value: true },
      ];
      const services = (await listRecords(f.ctx, serviceGroup, listQuery(filter, ['name']))).items as { id: number; name: string | null }[];
      if (services.length === 0) throw new Refused('No oncall services have been defined. You can define them in the Muster UI at /services.');
      return {
        title: 'Engage Oncall',
        submit: 'Engage',
        blocks: [
          staticSelect(
            'service',
            'Service',
            services.map((s) => ({ text: s.name ?? String(s.id), value: String(s.id) })),
          ),
          checkboxes('page', 'Page', [{ text: 'Page', value: 'Yes' }], { optional: true }),
        ],
      };
    },
    async submit(f, form) {
      const service = form.id('service');
      if (!service) return inputError('service', 'Choose a service.');
      const name = await engageOncall(f.ctx, INCIDENT, f.subject!.id, service, form.choices('page').includes('Yes'));
      return { done: `The on-call person of ${mrkdwn(name)} will be brought into the incident shortly.` };
    },
  },
};

export const createTaskFlow: Flow = {
  on: 'incident',
  sensitive: true,
  ack: 'Opening a dialog to create a task...',
  modal: {
    async open(f) {
      const people = activePeople(await incidentOf(f));
      return {
        title: 'Create Task',
        submit: 'Create',
        blocks: [
          staticSelect(
            'assignees',
            'Assignee',
            people.map((p) => ({ text: p.text, value: p.email })),
          ),
          textInput('description', 'Task Description', { multiline: true, initial: f.inv.text, placeholder: 'Task description' }),
        ],
      };
    },
    async submit(f, form) {
      const assignee = form.choice('assignees');
      const description = form.text('description');
      if (!description) return inputError('description', 'Describe the task.');
      await createTask(f.ctx, {
        incident: { id: f.subject!.id },
        description,
        assignees: assignee ? [{ individual: { email: assignee } }] : [],
      });
      return { done: 'Task created successfully.' };
    },
  },
};

export const runWorkflowFlow: Flow = {
  on: 'incident',
  ack: 'Opening a modal to run a workflow...',
  modal: {
    async open(f) {
      const filter = [
        { model: 'Project', field: 'id', op: '==', value: f.subject!.projectId },
        { field: 'enabled', op: '==', value: true },
      ];
      const workflows = (await listWorkflows(f.ctx, listQuery(filter, ['name']))).items;
      if (workflows.length === 0) throw new Refused("No workflows are enabled in this incident's project.");
      return {
        title: 'Run Workflow',
        submit: 'Run',
        blocks: [
          staticSelect(
            'workflow',
            'Workflow',
            workflows.map((w) => ({ text: w.name, value: String(w.id) })),
          ),
          textInput('run_reason', 'Run Reason', { multiline: true, initial: f.inv.text }),
          note('The workflow runs with the parameters it was declared with.'),
        ],
      };
    },
    async submit(f, form) {
      const workflow = form.id('workflow');
      if (!workflow) return inputError('workflow', 'Choose a workflow.');
      const run = await runWorkflow(f.ctx, workflow, { incident: { id: f.subject!.id }, run_reason: form.text('run_reason') ?? null });
      return { done: `Workflow ${mrkdwn(run.workflow.name)} submitted. Its progress is listed by the list-workflows command.` };
    },
  },
};
