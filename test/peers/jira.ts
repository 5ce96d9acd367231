// A Jira site on loopback speaking the REST endpoints Muster's Jira plugin uses, as Atlassian
// documents them: Cloud's v3 (Basic auth with e-mail and API token, descriptions in Atlassian
// Document Format, users by account id) or Data Center's v2 (Bearer personal access token, wiki
// markup, users by name). Its one project's workflow goes between To Do, In Progress, Mitigated and Done; it keeps the
// issues made and every request received, and can be told to refuse the next requests.
import { type PeerAnswer, type PeerRequest, startHttpPeer } from './http-peer.ts';

export interface JiraIssue {
  id: string;
  key: string;
  fields: Record<string, any>;
  status: string;
}

export interface JiraUser {
  email: string;
  accountId: string;
  name: string;
  displayName: string;
}

export interface JiraPeerOptions {
  hosting: 'cloud' | 'data_center';
  projectKey: string;
  /** Cloud: the account's e-mail; Data Center: unused. */
  email?: string;
  token: string;
  users?: JiraUser[];
  issueTypes?: string[];
}

const STATUSES = [
  { id: '10000', name: 'To Do', transition: '11' },
  { id: '3', name: 'In Progress', transition: '21' },
  { id: '10002', name: 'Mitigated', transition: '41' },
  { id: '10001', name: 'Done', transition: '31' },
];
const PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest'];

export async function startJiraPeer(opts: JiraPeerOptions) {
  const issues = new Map<string, JiraIssue>();
  const api = opts.hosting === 'cloud' ? '/rest/api/3' : '/rest/api/2';
  const expected = opts.hosting === 'cloud' ? `Basic ${Buffer.from(`${opts.email}:${opts.token}`).toString('base64')}` : `Bearer ${opts.token}`;
  const users = opts.users ?? [];
  const issueTypes = opts.issueTypes ?? ['Task', 'Bug', 'Incident'];
  let base = '';

  const json = (status: number, body: unknown): PeerAnswer => ({ status, body, headers: { 'content-type': 'application/json;charset=UTF-8' } });
  const errorsOf = (status: number, errorMessages: string[], errors: Record<string, string> = {}) => json(status, { errorMessages, errors });
  const userOut = (u: JiraUser) =>
    opts.hosting === 'cloud'
      ? {
          self: `${base}${api}/user?accountId=${u.accountId}`,
          accountId: u.accountId,
          accountType: 'atlassian',
          emailAddress: u.email,
          displayName: u.displayName,
          active: true,
        }
      : {
          self: `${base}${api}/user?username=${u.name}`,
          key: `JIRAUSER${u.accountId.length}`,
          name: u.name,
          emailAddress: u.email,
          displayName: u.displayName,
          active: true,
        };

  /** The reason a field set is refused, as Jira words it, or undefined. */
  function fieldProblems(fields: Record<string, any>): Record<string, string> {
    const problems: Record<string, string> = {};
    if ('description' in fields) {
      const d = fields.description;
      if (opts.hosting === 'cloud' && !(d && typeof d === 'object' && d.type === 'doc' && d.version === 1))
        problems.description = 'Operation value must be an Atlassian Document.';
      if (opts.hosting === 'data_center' && typeof d !== 'string') problems.description = 'Operation value must be a string';
    }
    if ('summary' in fields && (typeof fields.summary !== 'string' || /[\r\n]/.test(fields.summary) || fields.summary.length > 255))
      problems.summary = 'Summary must be less than 255 characters and on one line.';
    if (fields.priority && !PRIORITIES.includes(fields.priority.name)) problems.priority = `Priority name '${fields.priority.name}' is not valid`;
    if (fields.assignee) {
      const known =
        opts.hosting === 'cloud' ? users.some((u) => u.accountId === fields.assignee.accountId) : users.some((u) => u.name === fields.assignee.name);
      if (!known) problems.assignee = 'User cannot be assigned issues.';
    }
    return problems;
  }

  function handle(r: PeerRequest): PeerAnswer {
    if (r.headers.authorization !== expected)
      return { status: 401, headers: { 'content-type': 'text/plain' }, body: 'Client must be authenticated to access this resource.' };
    if (!r.path.startsWith(`${api}/`)) return errorsOf(404, ['Not found']);
    const path = r.path.slice(api.length);
    let m: RegExpExecArray | null;

    if (r.method === 'GET' && path === '/myself')
      return json(200, userOut({ email: opts.email ?? 'muster@example.com', accountId: 'muster-bot', name: 'muster', displayName: 'Muster' }));

    if (r.method === 'GET' && (m = /^\/project\/([^/]+)$/.exec(path))) {
      if (decodeURIComponent(m[1]) !== opts.projectKey) return errorsOf(404, [`No project could be found with key '${decodeURIComponent(m[1])}'.`]);
      return json(200, {
        self: `${base}${api}/project/10000`,
        id: '10000',
        key: opts.projectKey,
        name: 'Operations',
        issueTypes: issueTypes.map((name, i) => ({ self: `${base}${api}/issuetype/${i + 1}`, id: String(i + 1), name, subtask: false })),
      });
    }

    if (r.method === 'GET' && path === '/user/search') {
      const q = (opts.hosting === 'cloud' ? r.query.get('query') : r.query.get('username')) ?? '';
      if (!q)
        return errorsOf(400, [
          opts.hosting === 'cloud' ? 'One of the query parameters query, accountId or property is required.' : 'The username query parameter was not provided',
        ]);
      return json(200, users.filter((u) => u.email.toLowerCase().startsWith(q.toLowerCase()) || u.name === q).map(userOut));
    }

    if (r.method === 'POST' && path === '/issue') {
      const fields = r.body?.fields ?? {};
      const problems = fieldProblems(fields);
      if (fields.project?.key !== opts.projectKey) problems.project = 'valid project is required';
      if (!issueTypes.includes(fields.issuetype?.name)) problems.issuetype = 'Specify a valid issue type';
      if (!fields.summary) problems.summary = 'You must specify a summary of the issue.';
      if (Object.keys(problems).length) return errorsOf(400, [], problems);
      const id = String(10000 + issues.size + 1);
      const key = `${opts.projectKey}-${issues.size + 1}`;
      issues.set(key, { id, key, fields: { ...fields }, status: 'To Do' });
      return json(201, { id, key, self: `${base}${api}/issue/${id}` });
    }

    if ((m = /^\/issue\/([^/]+)(\/transitions)?$/.exec(path))) {
      const issue = issues.get(decodeURIComponent(m[1]));
      if (!issue) return errorsOf(404, ['Issue does not exist or you do not have permission to see it.']);
      const status = STATUSES.find((s) => s.name === issue.status)!;
      if (!m[2] && r.method === 'GET')
        return json(200, {
          id: issue.id,
          key: issue.key,
          self: `${base}${api}/issue/${issue.id}`,
          fields: { ...issue.fields, status: { self: `${base}${api}/status/${status.id}`, id: status.id, name: status.name } },
        });
      if (!m[2] && r.method === 'PUT') {
        const problems = fieldProblems(r.body?.fields ?? {});
        if (Object.keys(problems).length) return errorsOf(400, [], problems);
        Object.assign(issue.fields, r.body?.fields ?? {});
        return { status: 204 };
      }
      const offered = STATUSES.filter((s) => s.name !== issue.status);
      if (m[2] && r.method === 'GET')
        return json(200, {
          expand: 'transitions',
          transitions: offered.map((s) => ({
            id: s.transition,
            name: `Move to ${s.name}`,
            to: { self: `${base}${api}/status/${s.id}`, id: s.id, name: s.name },
            hasScreen: false,
            isGlobal: true,
            isInitial: false,
            isConditional: false,
          })),
        });
      if (m[2] && r.method === 'POST') {
        const to = offered.find((s) => s.transition === r.body?.transition?.id);
        if (!to) return errorsOf(400, [`Transition id '${r.body?.transition?.id}' is not valid for this issue.`]);
        issue.status = to.name;
        return { status: 204 };
      }
    }
    return errorsOf(404, ['Not found']);
  }

  const peer = await startHttpPeer(handle);
  base = peer.url;

  return {
    url: base,
    requests: peer.requests,
    issues,
    /** The next `times` requests are answered `status` (with `headers`), or never answered ('hang'). */
    refuse(status: number | 'hang', times = 1, headers?: Record<string, string>) {
      peer.fail(/./, status === 'hang' ? 'hang' : { status, headers, body: { errorMessages: ['Refused by the test'], errors: {} } }, times);
    },
    /** Requests of a method whose path ends with `suffix`. */
    received: (method: string, suffix: string) => peer.requests.filter((r) => r.method === method && r.path.endsWith(suffix)),
    close: peer.close,
  };
}

export type JiraPeer = Awaited<ReturnType<typeof startJiraPeer>>;
