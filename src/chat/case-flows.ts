// The case commands and the buttons on a case's message (create, edit, escalate, resolve, join),
// each through the service the HTTP API uses for the same change.
import type { Static } from '@sinclair/typebox';
import { createCase, escalateCase, updateCase } from '../domains/case/flows.ts';
import type { CaseReadT } from '../domains/case/reader.ts';
import { CASE_RESOLUTION_REASONS, CASE_STATUSES, type CaseUpdate } from '../domains/case/schema.ts';
import { getCase, joinCase } from '../domains/case/service.ts';
import type { IncidentReadT } from '../domains/incident/reader.ts';
import { recordLink } from '../plugins/types.ts';
import { mrkdwn, externalMultiSelect, externalSelect, link, note, type Option, staticSelect, textInput } from './blocks.ts';
import { type Flow, type FlowContext, inputError } from './flow.ts';
import { byId, optionOf, projectOptions, tagOption } from './options.ts';

const caseOf = (f: FlowContext) => getCase(f.ctx, f.subject!.id) as Promise<CaseReadT>;
const choices = (values: readonly string[]): Option[] => values.map((v) => ({ text: v, value: v }));
const caseName = (c: { id: number; name?: string | null }) => c.name ?? `case ${c.id}`;

/** An update's body from the case as it is: what the modal does not show is sent back unchanged. */
function updateBodyOf(c: CaseReadT): Static<typeof CaseUpdate> {
  return {
    title: c.title,
    description: c.description ?? undefined,
    resolution: c.resolution ?? undefined,
    resolution_reason: c.resolution_reason ?? undefined,
    status: c.status ?? undefined,
    visibility: c.visibility ?? undefined,
    case_type: { id: c.case_type.id },
    case_priority: { id: c.case_priority.id },
    case_severity: { id: c.case_severity.id },
    tags: c.tags.map((t) => ({ id: t.id })),
    related: c.related.map((r) => ({ id: r.id })),
    duplicates: c.duplicates.map((d) => ({ id: d.id })),
    incidents: c.incidents.map((i) => ({ id: i.id })),
  } as Static<typeof CaseUpdate>;
}

export const createCaseFlow: Flow = {
  on: 'none',
  ack: 'Opening a dialog to create a case...',
  modal: {
    async open(f) {
      const projects = await projectOptions(f.ctx);
      return {
        title: 'Create Case',
        submit: 'Create',
        blocks: [
          textInput('title', 'Title', { placeholder: 'A brief explanatory title.' }),
          textInput('description', 'Description', { multiline: true, initial: f.inv.text, optional: true }),
          staticSelect('project', 'Project', projects.options, { initial: projects.initial }),
          externalSelect('case_type', 'Type', { optional: true, hint: "Leave it empty for the project's default." }),
          externalSelect('case_severity', 'Severity', { optional: true }),
          externalSelect('case_priority', 'Priority', { optional: true }),
        ],
      };
    },
    async submit(f, form) {
      const created = (await createCase(f.ctx, {
        title: form.text('title') ?? '',
        description: form.text('description'),
        project: byId(form.id('project')),
        case_type: byId(form.id('case_type')),
        case_severity: byId(form.id('case_severity')),
        case_priority: byId(form.id('case_priority')),
        reporter: { individual: { email: f.ctx.user.email } },
        tags: [],
      } as never)) as CaseReadT;
      const url = created.name ? recordLink(f.env.settings.uiUrl, f.ctx.organization.slug, 'case', created.name) : null;
      return { done: `Case ${link(url, caseName(created))} created: ${mrkdwn(created.title)}.` };
    },
  },
};

const editBlocks = (c: CaseReadT) => [
  textInput('title', 'Title', { initial: c.title }),
  textInput('description', 'Description', { multiline: true, initial: c.description, optional: true }),
  textInput('resolution', 'Resolution', { multiline: true, initial: c.resolution, optional: true }),
  staticSelect('resolution_reason', 'Resolution Reason', choices(CASE_RESOLUTION_REASONS), {
    optional: true,
    initial: c.resolution_reason ? { text: c.resolution_reason, value: c.resolution_reason } : null,
  }),
  staticSelect('status', 'Status', choices(CASE_STATUSES), { initial: c.status ? { text: c.status, value: c.status } : null }),
  externalSelect('case_type', 'Type', { initial: optionOf(c.case_type) }),
  externalSelect('case_severity', 'Severity', { initial: optionOf(c.case_severity) }),
  externalSelect('case_priority', 'Priority', { initial: optionOf(c.case_priority) }),
  externalMultiSelect('tags', 'Tags', {
    optional: true,
    initial: c.tags.map(tagOption),
  }),
];

const oneOf = <T extends string>(values: readonly T[], v: string | undefined): T | undefined => values.find((x) => x === v);

export const updateCaseFlow: Flow = {
  on: 'case',
  ack: 'Opening a dialog to update the case...',
  modal: {
    async open(f) {
      return { title: 'Edit Case', submit: 'Update', blocks: [note("Use this form to update the case's details."), ...editBlocks(await caseOf(f))] };
    },
    async submit(f, form) {
      const c = await caseOf(f);
      await updateCase(f.ctx, c.id, {
        ...updateBodyOf(c),
        title: form.text('title') ?? '',
        description: form.text('description') ?? '',
        resolution: form.text('resolution') ?? c.resolution ?? undefined,
        resolution_reason: oneOf(CASE_RESOLUTION_REASONS, form.choice('resolution_reason')) ?? c.resolution_reason ?? undefined,
        status: oneOf(CASE_STATUSES, form.choice('status')) ?? c.status ?? undefined,
        case_type: byId(form.id('case_type')) ?? { id: c.case_type.id },
        case_severity: byId(form.id('case_severity')) ?? { id: c.case_severity.id },
        case_priority: byId(form.id('case_priority')) ?? { id: c.case_priority.id },
        tags: form.choices('tags').map((id) => ({ id: Number(id) })),
      } as Static<typeof CaseUpdate>);
      return { done: 'Case updated successfully.' };
    },
  },
};

export const escalateCaseFlow: Flow = {
  on: 'case',
  ack: 'Opening a dialog to escalate the case...',
  modal: {
    async open(f) {
      const c = await caseOf(f);
      return {
        title: 'Escalate Case',
        submit: 'Escalate',
        blocks: [
          note(`The case *${mrkdwn(caseName(c))}* becomes an incident of the same title and description, its assignee the incident's commander.`),
          externalSelect('incident_type', 'Incident Type', { optional: true, hint: "Leave it empty for the case type's incident type." }),
          externalSelect('incident_priority', 'Incident Priority', { optional: true }),
        ],
      };
    },
    async submit(f, form) {
      const c = await caseOf(f);
      const incident = (await escalateCase(f.ctx, c.id, {
        title: c.title,
        description: c.description ?? c.title,
        incident_type: byId(form.id('incident_type')),
        incident_priority: byId(form.id('incident_priority')),
        tags: [],
      } as never)) as IncidentReadT;
      const url = incident.name ? recordLink(f.env.settings.uiUrl, f.ctx.organization.slug, 'incident', incident.name) : null;
      return { done: `Case ${mrkdwn(caseName(c))} escalated to incident ${link(url, incident.name ?? String(incident.id))}.` };
    },
  },
};

export const resolveCaseFlow: Flow = {
  on: 'case',
  ack: 'Opening a dialog to resolve the case...',
  modal: {
    async open(f) {
      const c = await caseOf(f);
      return {
        title: 'Resolve Case',
        submit: 'Resolve',
        blocks: [
          staticSelect('resolution_reason', 'Resolution Reason', choices(CASE_RESOLUTION_REASONS), {
            initial: c.resolution_reason ? { text: c.resolution_reason, value: c.resolution_reason } : null,
          }),
          textInput('resolution', 'Resolution', { multiline: true, initial: c.resolution }),
        ],
      };
    },
    async submit(f, form) {
      const reason = oneOf(CASE_RESOLUTION_REASONS, form.choice('resolution_reason'));
      if (!reason) return inputError('resolution_reason', 'Choose why the case is resolved.');
      const c = await caseOf(f);
      await updateCase(f.ctx, c.id, {
        ...updateBodyOf(c),
        status: 'Closed',
        resolution_reason: reason,
        resolution: form.text('resolution') ?? c.resolution ?? undefined,
      } as Static<typeof CaseUpdate>);
      return { done: `Case ${mrkdwn(caseName(c))} resolved.` };
    },
  },
};

export const joinCaseFlow: Flow = {
  on: 'case',
  ack: 'Adding you to the case...',
  async reply(f) {
    await joinCase(f.ctx, f.subject!.id);
    const c = await caseOf(f);
    return { text: `You have joined case ${caseName(c)}: ${c.title}.` };
  },
};
