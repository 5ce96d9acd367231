// Jira Cloud and Data Center as a ticket system: an issue per incident and per case in the
// configured project, named by its key (the record takes the key as its name, as Dispatch's Jira
// plugin did), kept up to date by the ticket-update job: summary, description with the link back,
// priority, the commander's or assignee's Jira user, and the status through the workflow's
// transitions. Every call runs in a job through the outbound client; a refusal is thrown with a
// reason an Admin can act on, and a rate limit is retried after Jira's Retry-After.
import type { CloudClient } from 'jira.js';
import { authoredByMuster } from '../authored.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import { isRetryLater } from '../../../lib/retry-later.ts';
import { ConfigurationRefused, recordLink, type Subject, type TaskSubject, type TicketPlugin } from '../../types.ts';
import { jiraClient } from './client.ts';
import { browseLink, jiraConfigOf, jiraConfiguration, type JiraConfig } from './config.ts';
import { descriptionOf, issueTypeOf, priorityOf, summaryOf, taskStatusOf, userFieldOf } from './mapping.ts';

/** The `resource_type` of a task's issue (Muster's own: Dispatch's Jira plugin made none for tasks). */
const TASK_ISSUE = 'jira-issue';

/** How long a configuration check waits for Jira: an Admin is waiting for the answer. */
const CHECK_TIMEOUT_MS = 5_000;

const sameName = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/** Moves the issue to the Jira status the configuration gives a Muster status, through a transition that leads there. */
async function moveTo(jira: CloudClient, config: JiraConfig, key: string, status: string, target = config.statuses[status]): Promise<void> {
  if (!target) return;
  const issue = await jira.issues.getIssue({ issueIdOrKey: key, fields: ['status'] });
  const current = (issue.fields as { status?: { name?: string } } | undefined)?.status?.name;
  if (sameName(current, target)) return;
  const { transitions = [] } = await jira.issues.getTransitions({ issueIdOrKey: key });
  const transition = transitions.find((t) => sameName(t.to?.name, target));
  if (!transition?.id)
    throw new VendorError(
      `Jira offers no transition of ${key} from "${current ?? 'its status'}" to "${target}" (the status Muster's ${status} maps to): check the plugin's statuses against the project's workflow`,
      0,
    );
  await jira.issues.doTransition({ issueIdOrKey: key, transition: { id: transition.id } });
}

/** The fields an issue takes from its record on every update. */
async function recordFields(jira: CloudClient, config: JiraConfig, subject: Subject, link: string, log: { warn(m: string): void }) {
  const fields: Record<string, unknown> = {
    summary: summaryOf(subject.title),
    description: descriptionOf(config, { kind: subject.kind, title: subject.title, description: subject.description, link }),
  };
  const priority = priorityOf(config, subject.priority);
  if (priority) fields.priority = priority;
  if (subject.owner) {
    const user = await userFieldOf(jira, config, subject.owner);
    if (user) fields.assignee = user;
    else
      log.warn(
        `Jira knows no user with the e-mail of the ${subject.kind}'s ${subject.kind === 'case' ? 'assignee' : 'commander'}; the issue's assignee is left as it is`,
      );
  }
  return fields;
}

export const jiraPlugin: TicketPlugin = {
  slug: 'jira-ticket',
  title: 'Jira Plugin - Ticket Management',
  type: 'ticket',
  ...authoredByMuster,
  description: 'Keeps a Jira Cloud or Data Center issue per incident and case: title, description with a link back, status, priority and assignee.',
  configuration: jiraConfiguration,

  async create(subject, raw, env) {
    const config = jiraConfigOf(raw);
    const jira = await jiraClient(config, env.outbound, env.log);
    // A ticket is made in the create job with the record read whole: its priority and owner too.
    const full = subject as Partial<Subject> & typeof subject;
    const fields: Record<string, unknown> = {
      project: { key: config.project_key },
      issuetype: { name: issueTypeOf(config, subject.kind) },
      summary: summaryOf(subject.title),
      labels: config.labels,
      description: descriptionOf(config, { kind: subject.kind, title: subject.title, description: subject.description, link: full.weblink ?? '' }),
    };
    const priority = priorityOf(config, full.priority ?? null);
    if (priority) fields.priority = priority;
    if (full.owner) {
      const user = await userFieldOf(jira, config, full.owner);
      if (user) fields.assignee = user;
    }
    const created = await jira.issues.createIssue({ fields: fields as never });
    const key = created.key as string;
    // The record takes the key as its name, so its page's link is known only now.
    const link = recordLink(env.uiUrl, subject.organization.slug, subject.kind, key);
    try {
      await jira.issues.editIssue({ issueIdOrKey: key, fields: { description: descriptionOf(config, { ...subject, link }) } as never });
      await moveTo(jira, config, key, subject.status);
    } catch (err) {
      // The issue exists: failing now would make another on the retry. The next update does both.
      env.log.warn(`Jira issue ${key} was made but its link back or status was not written: ${(err as Error).message}`);
    }
    return { name: key, resource_id: key, resource_type: 'jira-ticket', weblink: browseLink(config, key) };
  },

  async update(ticket, subject, raw, env) {
    const config = jiraConfigOf(raw);
    const jira = await jiraClient(config, env.outbound, env.log);
    const key = ticket.resource_id;
    await jira.issues.editIssue({ issueIdOrKey: key, fields: (await recordFields(jira, config, subject, subject.weblink, env.log)) as never });
    await moveTo(jira, config, key, subject.status);
  },

  async createTaskTicket(task, raw, env) {
    const config = jiraConfigOf(raw);
    if (!config.create_task_issues) return null;
    const jira = await jiraClient(config, env.outbound, env.log);
    const incident = task.incident.name ?? `#${task.incident.id}`;
    const fields: Record<string, unknown> = {
      project: { key: config.project_key },
      issuetype: { name: config.task_issue_type },
      summary: summaryOf(task.description.split('\n')[0] || `Follow-up of ${incident}`),
      labels: config.labels,
      description: descriptionOf(config, {
        kind: 'incident',
        title: incident,
        description: `${task.description}\n\nA follow-up of ${incident}.`,
        link: task.incident.weblink,
      }),
    };
    const priority = priorityOf(config, task.priority);
    if (priority) fields.priority = priority;
    const person = task.assignees[0] ?? task.owner;
    if (person) {
      const user = await userFieldOf(jira, config, person);
      if (user) fields.assignee = user;
    }
    const created = await jira.issues.createIssue({ fields: fields as never });
    const key = created.key as string;
    return { resource_id: key, resource_type: TASK_ISSUE, weblink: browseLink(config, key) };
  },

  async updateTaskTicket(ticket, task: TaskSubject, raw, env) {
    if (ticket.resource_type !== TASK_ISSUE) return;
    const config = jiraConfigOf(raw);
    await moveTo(await jiraClient(config, env.outbound, env.log), config, ticket.resource_id, task.status, taskStatusOf(config, task.status));
  },

  async check(raw, env) {
    const config = jiraConfigOf(raw);
    if (config.hosting === 'cloud' && !config.email)
      throw new ConfigurationRefused('email', 'Jira Cloud needs the e-mail of the Atlassian account the API token belongs to.');
    const jira = await jiraClient(config, env.outbound, env.log, CHECK_TIMEOUT_MS);
    const asked = async <T>(field: string, call: () => Promise<T>): Promise<T> => {
      try {
        return await call();
      } catch (err) {
        if (isRetryLater(err)) throw new ConfigurationRefused('api_url', `${err.message}; try again in a minute.`);
        if (!(err instanceof VendorError)) throw err;
        const blamed = err.status === 0 ? 'api_url' : err.status === 401 ? 'api_token' : field;
        throw new ConfigurationRefused(blamed, `${err.message}.`);
      }
    };
    await asked('api_token', () => jira.myself.getCurrentUser());
    const project = await asked('project_key', () => jira.projects.getProject({ projectIdOrKey: config.project_key, expand: 'issueTypes' }));
    const types = (project.issueTypes ?? []).map((t) => t.name ?? '');
    for (const field of ['issue_type', 'case_issue_type', ...(config.create_task_issues ? (['task_issue_type'] as const) : [])] as const) {
      const name = config[field];
      if (name && types.length && !types.some((t) => sameName(t, name)))
        throw new ConfigurationRefused(field, `Jira project ${config.project_key} has no issue type "${name}" (it has ${types.join(', ')}).`);
    }
  },
};
