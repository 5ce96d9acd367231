// A Muster record as a Jira issue's fields: its summary, a description that links back to the
// record's page (Atlassian Document Format on Cloud's v3, wiki markup on Data Center's v2), the
// configured labels, priority and status names, and the user field of a person found by e-mail.
import type { CloudClient } from 'jira.js';
import type { JiraConfig } from './config.ts';

/** What an issue says of its record. */
export interface IssueText {
  kind: 'incident' | 'case';
  title: string;
  description: string;
  /** The record's page in Muster's web UI. */
  link: string;
}

/** Jira refuses a summary with a line break or longer than 255 characters. */
export const summaryOf = (title: string) => title.replace(/\s*[\r\n]+\s*/g, ' ').slice(0, 255);

const paragraph = (content: unknown[]) => ({ type: 'paragraph', content });
const text = (t: string, marks?: unknown[]) => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });

/** The description: the record's own, then the link back. */
export function descriptionOf(config: JiraConfig, issue: IssueText): unknown {
  const label = `Open the ${issue.kind} in Muster`;
  if (config.hosting === 'data_center') return `${issue.description ? `${issue.description}\n\n` : ''}[${label}|${issue.link}]`;
  const own = issue.description
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => paragraph([text(p)]));
  return { type: 'doc', version: 1, content: [...own, paragraph([text(label, [{ type: 'link', attrs: { href: issue.link } }])])] };
}

/** The Jira priority for a Muster priority, when the configuration names one. */
export const priorityOf = (config: JiraConfig, priority: string | null) => {
  const name = priority ? config.priorities[priority] : undefined;
  return name ? { name } : undefined;
};

/** The issue type of a record's issue. */
export const issueTypeOf = (config: JiraConfig, kind: 'incident' | 'case') =>
  kind === 'case' ? (config.case_issue_type ?? config.issue_type) : config.issue_type;

/**
 * The user field of the person with this e-mail: Cloud names users by account id, Data Center by
 * user name; undefined when Jira knows nobody by it.
 */
export async function userFieldOf(jira: CloudClient, config: JiraConfig, email: string): Promise<{ accountId: string } | { name: string } | undefined> {
  const found = (await jira.userSearch.findUsers(config.hosting === 'cloud' ? { query: email, maxResults: 10 } : { username: email, maxResults: 10 })) as {
    accountId?: string;
    name?: string;
    emailAddress?: string;
  }[];
  // Cloud hides e-mail addresses by some profiles' settings: the only match stands for the person then.
  const exact = found.find((u) => u.emailAddress?.toLowerCase() === email.toLowerCase()) ?? (found.length === 1 ? found[0] : undefined);
  if (!exact) return undefined;
  if (config.hosting === 'cloud') return exact.accountId ? { accountId: exact.accountId } : undefined;
  return exact.name ? { name: exact.name } : undefined;
}

/** The Jira status of a task's status: `Open` and `Resolved` as listed in `statuses`, else as a New and a Closed record. */
export const taskStatusOf = (config: JiraConfig, status: string): string | undefined =>
  config.statuses[status] ?? (status === 'Resolved' ? config.statuses.Closed : config.statuses.New);
