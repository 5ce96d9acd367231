// What the Jira plugin takes: where Jira is (Cloud or Data Center), how Muster signs in, the
// project and issue types its issues go to, and how Muster's statuses and priorities read in Jira.
import { type Static, Type } from '@sinclair/typebox';
import type { Configuration } from '../../types.ts';

const NAME_MAP = (description: string, defaults: Record<string, string>) =>
  Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1, maxLength: 255 }), { description, default: defaults });

export const jiraConfiguration = Type.Object(
  {
    // An enum (not a union of literals): the web UI's form offers it as a choice.
    hosting: Type.Unsafe<'cloud' | 'data_center'>({
      type: 'string',
      enum: ['cloud', 'data_center'],
      default: 'cloud',
      description: 'Jira Cloud (e-mail and API token) or Jira Data Center / Server (personal access token)',
    }),
    api_url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      description: 'The Jira site, e.g. https://your-domain.atlassian.net (Data Center: its base URL, with the context path if any)',
      'x-secret-bound': ['api_token'],
    }),
    browser_url: Type.Optional(
      Type.String({ format: 'uri', pattern: '^https?://', description: 'Base of the issue links people open (default: the site URL)' }),
    ),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'Cloud: the e-mail of the Atlassian account Muster acts as' })),
    api_token: Type.String({
      minLength: 1,
      maxLength: 2048,
      writeOnly: true,
      description: "Cloud: the account's API token; Data Center: a personal access token",
    }),
    project_key: Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', maxLength: 255, description: 'Key of the Jira project issues are made in, e.g. OPS' }),
    issue_type: Type.String({ minLength: 1, maxLength: 255, default: 'Task', description: "Issue type of incidents' issues" }),
    case_issue_type: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Issue type of cases' issues (default: the incidents')" })),
    create_task_issues: Type.Boolean({
      default: false,
      description: "Whether each incident's follow-up task gets an issue too (moved on when the task is resolved)",
    }),
    task_issue_type: Type.String({ minLength: 1, maxLength: 255, default: 'Task', description: "Issue type of tasks' issues" }),
    labels: Type.Array(Type.String({ pattern: '^\\S+$', maxLength: 255 }), {
      default: ['muster'],
      maxItems: 20,
      description: 'Labels every issue gets (no spaces)',
    }),
    statuses: NAME_MAP('Muster status to the Jira status its issue is moved to (a status not listed leaves the issue where it is)', {
      New: 'To Do',
      Triage: 'To Do',
      Escalated: 'In Progress',
      Active: 'In Progress',
      Stable: 'In Progress',
      Closed: 'Done',
    }),
    priorities: NAME_MAP('Muster priority name to Jira priority name (a priority not listed is not set)', {}),
  },
  { additionalProperties: false },
);

export type JiraConfig = Static<typeof jiraConfiguration>;

/** The stored configuration, its defaults applied on save (the configuration checker fills them). */
export const jiraConfigOf = (config: Configuration): JiraConfig => config as JiraConfig;

/** Where people open an issue. */
export const browseLink = (config: JiraConfig, key: string) =>
  `${(config.browser_url ?? config.api_url).replace(/\/+$/, '')}/browse/${encodeURIComponent(key)}`;
