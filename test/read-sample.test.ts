// A sample of read answers pinned byte for byte: a rich world built over HTTP, then every record read
// by id and every list, as the Owner and as a Member who takes part in none of the Restricted records,
// compared with the texts in fixtures/read-sample. Only what varies between runs is normalized.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPlugins, uninstallPlugins } from '../src/domains/plugin/catalogue.ts';
import { caseTable, incident } from '../src/domains/lifecycle/table.ts';
import { allPlugins } from '../src/plugins/registry.ts';
import { call, createTestApp, LOCAL_PEERS, type Res } from './helpers.ts';
import { populate, type World } from './worlds/world.ts';
import { CASE_TABLE_FIELDS } from '../ui/src/pages/cases/case-filters.ts';
import { INCIDENT_TABLE_FIELDS } from '../ui/src/pages/incidents/incident-filters.ts';

let w: World;
const project = { name: 'default' };
/** Ids of the records made, by name, for the reads. */
const id: Record<string, number | string> = {};

async function post(path: string, body: unknown, token = w.owner, method = 'POST'): Promise<Res> {
  const res = await call(w.t.app, method, `/default/${path}`, { token, body });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}
const get = (path: string, token = w.owner) => call(w.t.app, 'GET', `/default/${path}`, { token });
/** Sends a record's read object back with `changes`, as the web UI does. */
async function edit(path: string, changes: Record<string, unknown>) {
  const current = (await get(path)).body;
  return post(path, { ...current, ...changes }, w.owner, 'PUT');
}
/** A record's own chat channel, as the Slack plugin records it. */
const conversation = (channel: string) => ({
  resource_id: channel,
  resource_type: 'slack-conversation',
  channel_id: channel,
  thread_id: null,
  weblink: `https://slack.example.com/archives/${channel}`,
});

/** The plugins whose catalogue rows the sample pins: built-ins added since are uninstalled, or they would change every plugin list. */
const SAMPLED_PLUGINS = [
  'muster-ticket',
  'muster-participant-resolver',
  'muster-contact',
  'muster-oncall-http',
  'muster-email',
  'muster-webhook',
  'generic-workflow',
  'slack-conversation',
  'muster-storage',
  'muster-jitsi-conference',
  'muster-participant-group',
  'muster-document',
  'muster-document-resolver',
];

async function buildWorld() {
  await installPlugins(w.t.database.db);
  await uninstallPlugins(
    w.t.database.db,
    allPlugins()
      .map((p) => p.slug)
      .filter((slug) => !SAMPLED_PLUGINS.includes(slug)),
  );
  const projectId = (await get('projects')).body.items[0].id;
  id.project = projectId;

  // Reference records.
  id.tagType = (await post('tag_types', { name: 'Component', description: 'Where', exclusive: true, project })).body.id;
  id.tagType2 = (await post('tag_types', { name: 'Team', project })).body.id;
  id.tag = (
    await post('tags', { name: 'payments', description: 'Checkout', tag_type: { id: id.tagType }, uri: 'https://tags.example.com/p', project })
  ).body.id;
  id.tag2 = (await post('tags', { name: 'secops', tag_type: { name: 'Team' }, project })).body.id;
  id.filterTag = (await post('search/filters', { name: 'Payments', expression: [{ model: 'Tag', field: 'name', value: 'payments' }], project })).body.id;
  id.filterCase = (
    await post('search/filters', {
      name: 'Phishing cases',
      description: 'By tag',
      expression: [{ model: 'Tag', field: 'name', value: 'secops' }],
      subject: 'case',
      project,
    })
  ).body.id;
  id.individual = (
    await post('individuals', {
      email: 'oncall@example.com',
      name: 'Oncall Person',
      weblink: 'https://people.example.com/oncall',
      filters: [{ id: id.filterTag }],
      project,
    })
  ).body.id;
  id.individual2 = (await post('individuals', { email: 'analyst@example.com', name: 'Ann Analyst', filters: [{ id: id.filterCase }], project })).body.id;
  id.service = (await post('services', { name: 'Payments pager', type: 'pagerduty', external_id: 'P123', filters: [{ id: id.filterTag }], project })).body.id;
  id.team = (
    await post('teams', { name: 'Payments team', email: 'payments@example.com', notes: 'Owns checkout', filters: [{ id: id.filterTag }], project })
  ).body.id;
  id.notification = (
    await post('notifications', {
      name: 'Incidents channel',
      description: 'Everything',
      type: 'conversation',
      target: '#incidents',
      filters: [{ id: id.filterTag }],
      project,
    })
  ).body.id;
  id.document = (
    await post('documents', {
      name: 'Runbook',
      weblink: 'https://docs.example.com/runbook',
      resource_id: 'abc',
      resource_type: 'google-doc',
      filters: [{ id: id.filterTag }],
      project,
    })
  ).body.id;
  id.template = (
    await post('documents', {
      name: 'Incident Template',
      weblink: 'https://docs.example.com/tpl',
      resource_type: 'dispatch-incident-document-template',
      project,
    })
  ).body.id;
  id.costType = (await post('incident_cost_types', { name: 'Credits', description: 'Given back', category: 'Other', project })).body.id;
  const events = (await get('plugins/plugin_events')).body.items;
  id.costModel = (
    await post('cost_models', {
      name: 'Chat effort',
      description: 'Time spent in chat',
      enabled: true,
      project,
      activities: events.slice(0, 2).map((e: unknown, i: number) => ({ enabled: true, plugin_event: e, response_time_seconds: 120 + i })),
    })
  ).body.id;
  id.incidentType = (
    await post('incident_types', {
      name: 'Security',
      description: 'Security incidents',
      incident_template_document: { id: id.template },
      executive_template_document: { name: 'Incident Template' },
      cost_model: { id: id.costModel },
      plugin_metadata: [{ slug: 'slack-conversation', metadata: [{ key: 'channel', value: 'sec' }] }],
      project,
    })
  ).body.id;
  id.incidentPriority = (await post('incident_priorities', { name: 'Pressing', description: 'Now', view_order: 9, color: '#ff0000', project })).body.id;
  id.incidentSeverity = (await post('incident_severities', { name: 'Grave', description: 'Very', view_order: 9, color: '#aa0000', project })).body.id;
  id.casePriority = (await post('case_priorities', { name: 'Pressing', description: 'Now', view_order: 9, color: '#ff0000', project })).body.id;
  id.caseSeverity = (await post('case_severities', { name: 'Grave', description: 'Very', view_order: 9, color: '#aa0000', project })).body.id;
  id.caseType = (
    await post('case_types', { name: 'Phishing', description: 'Mails', incident_type: { id: id.incidentType }, cost_model: { id: id.costModel }, project })
  ).body.id;
  id.term = (await post('terms', { text: 'SLA', project })).body.id;
  id.definition = (
    await post('definitions', { text: 'Service level agreement', source: 'glossary', terms: [{ text: 'SLA' }, { text: 'Service level' }], project })
  ).body.id;

  // Data: sources and their nested records.
  id.sourceType = (await post('data/sources/types', { name: 'Log', description: 'Logs', project })).body.id;
  id.sourceStatus = (await post('data/sources/statuses', { name: 'Active', project })).body.id;
  id.sourceEnvironment = (await post('data/sources/environments', { name: 'Production', project })).body.id;
  id.sourceTransport = (await post('data/sources/transports', { name: 'Kinesis', project })).body.id;
  id.sourceDataFormat = (await post('data/sources/dataFormats', { name: 'JSON', project })).body.id;
  id.alert = (await post('data/alerts', { name: 'Spike', originator: 'monitor', external_link: 'https://example.com/a' })).body.id;
  id.source = (
    await post('data/sources', {
      name: 'CloudTrail',
      description: 'AWS API calls',
      sampling_rate: 100,
      cost: 12.5,
      retention: 30,
      data_last_loaded_at: '2024-05-01T10:00:00Z',
      links: [{ name: 'runbook', href: 'https://example.com' }],
      owner: { id: id.service },
      source_type: { name: 'Log' },
      source_status: { name: 'Active' },
      source_environment: { id: id.sourceEnvironment },
      source_transport: { id: id.sourceTransport },
      source_data_format: { id: id.sourceDataFormat },
      tags: [{ id: id.tag }],
      alerts: [{ id: id.alert }],
      project,
    })
  ).body.id;
  id.query = (
    await post('data/queries', { name: 'Root logins', language: 'sql', text: 'select 1', source: { name: 'CloudTrail' }, tags: [{ name: 'secops' }], project })
  ).body.id;

  // Signals.
  id.entityType = (await post('entity_type', { name: 'Host', jpath: '$.host', regular_expression: '\\bhost-[0-9]+\\b', project })).body.id;
  id.entityType2 = (await post('entity_type', { name: 'Email address', jpath: '$.actor.email', project })).body.id;
  id.entity = (await post('entity', { name: 'bob', value: 'bob@example.com', entity_type: { id: id.entityType2 }, project })).body.id;
  id.signalFilter = (
    await post('signals/filters', {
      name: 'Quiet hosts',
      action: 'snooze',
      mode: 'monitor',
      expression: [{ model: 'Entity', field: 'value', op: '==', value: 'host-9' }],
      project,
    })
  ).body.id;
  id.signalFilter2 = (await post('signals/filters', { name: 'Dedupe', action: 'deduplicate', window: 600, expression: [], project })).body.id;
  id.engagement = (
    await post('signals/engagements', {
      name: 'Confirm login',
      description: 'Ask the user.',
      require_mfa: true,
      entity_type: { id: id.entityType2 },
      message: 'Was it you?',
      project,
    })
  ).body.id;

  // Plugins and workflows: the generic workflow instance points nowhere reachable; no job runs here.
  const instances = (await get('plugins/instances?itemsPerPage=-1')).body.items as { id: number; plugin: { slug: string } }[];
  id.workflowInstance = instances.find((i) => i.plugin.slug === 'generic-workflow')!.id;
  await post(
    `plugins/instances/${id.workflowInstance}`,
    { enabled: true, configuration: { api_url: 'http://127.0.0.1:9/hook', auth_header: 'Bearer s3cret' } },
    w.owner,
    'PUT',
  );
  id.pluginInstance = instances.find((i) => i.plugin.slug === 'slack-conversation')!.id;
  id.workflow = (
    await post('workflows', {
      name: 'Build it',
      description: 'Builds the thing',
      resource_id: 'build',
      parameters: [{ key: 'region', value: 'eu' }],
      plugin_instance: { id: id.workflowInstance },
      project,
    })
  ).body.id;
  id.signal = (
    await post('signals', {
      name: 'Disk full',
      description: 'A disk filled up',
      owner: 'secops',
      external_id: 'disk-1',
      variant: 'disk-full',
      enabled: true,
      create_case: true,
      case_type: { id: id.caseType },
      case_priority: { id: id.casePriority },
      tags: [{ id: id.tag2 }],
      entity_types: [{ id: id.entityType }, { id: id.entityType2 }],
      filters: [{ id: id.signalFilter }, { id: id.signalFilter2 }],
      engagements: [{ id: id.engagement }],
      project,
    })
  ).body.id;

  // Incidents. The Member reports one; the Owner the rest, one Restricted the Member takes no part in.
  id.restricted = (await post('incidents', { title: 'Hidden one', description: 'Secret', visibility: 'Restricted', project })).body.id;
  id.open = (await post('incidents', { title: 'Open one', description: 'Visible', project })).body.id;
  id.full = (
    await post('incidents', {
      title: 'Checkout fails "sometimes"\n\ttab',
      description: 'Ünïcødé, \\ back\u0007slash',
      incident_type: { id: id.incidentType },
      incident_priority: { id: id.incidentPriority },
      incident_severity: { id: id.incidentSeverity },
      commander: { individual: { email: 'oncall@example.com' } },
      reporter: { individual: { email: 'member@example.com' } },
      tags: [{ id: id.tag }],
      project,
    })
  ).body.id;
  await edit(`incidents/${id.full}`, {
    duplicates: [{ id: id.restricted }, { id: id.open }],
    terms: [{ text: 'PCI' }],
    incident_costs: [
      { amount: 12.5, incident_cost_type: { id: id.costType } },
      { amount: 0.1, incident_cost_type: { id: id.costType } },
    ],
    resolution: 'Rolled back',
  });
  id.memberIncident = (await post('incidents', { title: 'Member reported', description: 'Mine', project }, w.member)).body.id;
  id.task = (
    await post('tasks', {
      incident: { id: id.full },
      description: 'Roll back',
      assignees: [{ individual: { email: 'analyst@example.com' } }, { individual: { email: 'member@example.com' } }],
      owner: { individual: { email: 'oncall@example.com' } },
    })
  ).body.id;
  id.hiddenTask = (await post('tasks', { incident: { id: id.restricted }, description: 'Hidden task' })).body.id;
  await post(`incidents/${id.full}/report/tactical`, { conditions: 'Bad', actions: 'Rolling back', needs: 'None' });
  await post(`incidents/${id.full}/report/executive`, { current_status: 'Contained', overview: 'All good', next_steps: 'Review' });
  id.feedback = (await post('feedback', { incident: { id: id.full }, feedback: 'Fine', rating: 'Very satisfied', anonymous: false })).body.id;
  id.hiddenFeedback = (await post('feedback', { incident: { id: id.restricted }, feedback: 'Hidden' })).body.id;
  id.incidentCost = (await post('incident_costs', { amount: 3, incident_cost_type: { id: id.costType }, incident: { id: id.open }, project })).body.id;
  id.workflowRun = (
    await post(`workflows/${id.workflow}/run`, {
      incident: { id: id.full },
      run_reason: 'The disk filled up',
      artifacts: [{ name: 'Disk usage graph', weblink: 'https://graphs.example.com/disk' }],
    })
  ).body.id;
  await w.t.database.db
    .update(incident)
    .set({ conversation: conversation('C-INCIDENT') })
    .where(eq(incident.id, Number(id.full)));
  id.stable = (await post('incidents', { title: 'Settled one', description: 'Stable now', project })).body.id;
  await edit(`incidents/${id.stable}`, { status: 'Stable' });
  id.closed = (await post('incidents', { title: 'Closed one', description: 'Over', project })).body.id;
  await edit(`incidents/${id.closed}`, { status: 'Closed' });

  // Cases: one opened by a signal, a Restricted one, and one linking them all.
  const ingested = await post(
    'signals/instances',
    { project, raw: { variant: 'disk-full', host: 'host-1 is down', actor: { email: 'bob@example.com' } } },
    w.member,
  );
  id.signalInstance = ingested.body.id;
  id.signalCase = ingested.body.case.id;
  id.restrictedCase = (await post('cases', { title: 'Hidden case', description: 'Secret', visibility: 'Restricted', project })).body.id;
  id.relatedCase = (await post('cases', { title: 'Related case', description: 'Next to it', project })).body.id;
  id.case = (
    await post('cases', {
      title: 'Suspicious login',
      description: 'A login from a new country.',
      case_type: { id: id.caseType },
      case_priority: { id: id.casePriority },
      case_severity: { id: id.caseSeverity },
      assignee: { individual: { email: 'analyst@example.com' } },
      reporter: { individual: { email: 'member@example.com' } },
      tags: [{ id: id.tag2 }],
      project,
    })
  ).body.id;
  await edit(`cases/${id.case}`, {
    related: [{ id: id.relatedCase }, { id: id.signalCase }],
    duplicates: [{ id: id.restrictedCase }],
    incidents: [{ id: id.full }, { id: id.restricted }],
    resolution: 'Confirmed',
  });
  await w.t.database.db
    .update(caseTable)
    .set({ conversation: conversation('C-CASE') })
    .where(eq(caseTable.id, Number(id.case)));
  await post(`cases/${id.relatedCase}/escalate`, { title: 'Escalated', description: 'From a case.' }, w.owner, 'PUT');
  id.escalated = (await get(`cases/${id.relatedCase}`)).body.incidents[0].id;
  id.memberCase = (await post('cases', { title: 'Member case', description: 'Mine', project }, w.member)).body.id;
  id.apiToken = (await post('api-tokens', { name: 'script' })).body.id;
  // Events written by one request share their times, and reads order them by time alone (the writes
  // of one request do not always come in one order): apart by a microsecond each, in the order of
  // their descriptions, they read in one order on every run.
  await w.t.database.query(
    `UPDATE event e SET started_at = e.started_at + s.n * interval '1 microsecond'
     FROM (SELECT ctid AS row, row_number() OVER (PARTITION BY started_at, created_at ORDER BY description, ctid) - 1 AS n FROM event) s
     WHERE e.ctid = s.row AND s.n > 0`,
  );
  // The response cost counts the hours people have spent by now: fixed here, it reads the same however long the build took.
  await w.t.database.query(
    `UPDATE incident_cost SET amount = 76 WHERE incident_cost_type_id IN (SELECT id FROM incident_cost_type WHERE name = 'Response Cost')`,
  );
}

/** What varies between runs: times, random ids, tokens. Sequence ids stay. */
function normalize(text: string): string {
  return text
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, '<time>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
    .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>')
    .replace(/\bmst_[\w-]+/g, 'mst_<token>');
}

/** The answers to these GETs, each with who asked and its status, as one text. */
async function sample(paths: string[], who: ('owner' | 'member')[] = ['owner', 'member']): Promise<string> {
  let out = '';
  for (const path of paths)
    for (const person of who) {
      // A path from the root (organizations) or in the `default` organization.
      const url = path.startsWith('/') ? path : `/default/${path}`;
      const res = await w.t.app.inject({ url: `/api/v1${url}`, headers: { authorization: `Bearer ${w[person]}` } });
      out += `### GET ${url} (${person})\n${res.statusCode}\n${normalize(res.payload)}\n\n`;
    }
  return out;
}

const byId = (path: string, ...keys: string[]) => [path, ...keys.map((k) => `${path}/${id[k]}`)];
const all = (path: string, ...keys: string[]) => [`${path}?itemsPerPage=-1`, ...keys.map((k) => `${path}/${id[k]}`)];
const include = (fields: string[]) => fields.map((f) => `include[]=${encodeURIComponent(f)}`).join('&');

// The include[] lists of the web UIs: Dispatch's incident dashboard, Muster's dashboards, tables,
// CSV export and pickers (ui/src/pages): the tables' as the UI has them now (imported), and the cases
// table's as it was before it asked only for what its columns show (CASE_TABLE).
const DISPATCH_DASHBOARD = [
  'closed_at',
  'commanders_location',
  'created_at',
  'duplicates',
  'incident_priority',
  'incident_severity',
  'incident_type',
  'name',
  'participants_location',
  'participants_team',
  'project',
  'reported_at',
  'reporters_location',
  'stable_at',
  'status',
  'tags',
  'title',
  'total_cost',
];
const INCIDENT_DASHBOARD = [
  'closed_at',
  'created_at',
  'incident_priority',
  'incident_severity',
  'incident_type',
  'name',
  'project',
  'reported_at',
  'stable_at',
  'status',
  'title',
  'total_cost',
];
const CASE_DASHBOARD = [
  'case_priority',
  'case_severity',
  'case_type',
  'closed_at',
  'created_at',
  'escalated_at',
  'name',
  'project',
  'reported_at',
  'status',
  'title',
  'total_cost_classic',
  'total_cost_new',
  'triage_at',
];
const CASE_TABLE = [
  'id',
  'name',
  'title',
  'status',
  'visibility',
  'reported_at',
  'case_priority',
  'case_severity',
  'case_type.name',
  'project.name',
  'assignee.individual',
];
const INCIDENT_CSV = [
  'id',
  'name',
  'title',
  'status',
  'incident_priority.name',
  'incident_severity.name',
  'incident_type.name',
  'project.name',
  'commander.individual.email',
  'reporter.individual.email',
  'visibility',
  'reported_at',
  'stable_at',
  'closed_at',
  'tags[].name',
  'total_cost',
  'description',
];
const PICKER = ['id', 'name', 'title'];
const projectFilter = encodeURIComponent(JSON.stringify({ and: [{ or: [{ model: 'Project', field: 'id', op: '==', value: 1 }] }] }));

const SEARCH_TYPES = [
  'Definition',
  'Document',
  'Incident',
  'IncidentPriority',
  'IncidentType',
  'IndividualContact',
  'Plugin',
  'Query',
  'SearchFilter',
  'Case',
  'Service',
  'Source',
  'Tag',
  'Task',
  'TeamContact',
  'Term',
]
  .map((t) => `type[]=${t}`)
  .join('&');

const GROUPS: Record<string, () => string[]> = {
  organization: () => [
    '/organizations',
    '/organizations/1',
    'projects',
    `projects/${id.project}`,
    'auth/me',
    'auth/myrole',
    'users?itemsPerPage=-1',
    'api-tokens',
  ],
  'reference-incident': () => [
    ...all('incident_priorities', 'incidentPriority'),
    ...all('incident_severities', 'incidentSeverity'),
    ...all('incident_types', 'incidentType'),
    ...all('incident_cost_types', 'costType'),
    ...all('incident_costs', 'incidentCost'),
    'incident_roles/Incident%20Commander?projectName=default',
  ],
  'reference-case': () => [
    ...all('case_priorities', 'casePriority'),
    ...all('case_severities', 'caseSeverity'),
    ...all('case_types', 'caseType'),
    ...all('cost_models', 'costModel'),
  ],
  tags: () => [...all('tag_types', 'tagType', 'tagType2'), ...all('tags', 'tag', 'tag2'), `tags/recommendations/incident/${id.full}`],
  contacts: () => [
    ...all('individuals', 'individual', 'individual2'),
    ...all('teams', 'team'),
    ...all('services', 'service'),
    ...all('notifications', 'notification'),
    ...byId('search/filters?itemsPerPage=-1'),
  ],
  knowledge: () => [...all('documents', 'document', 'template'), ...all('terms', 'term'), ...all('definitions', 'definition')],
  data: () => [
    ...all('data/sources', 'source'),
    ...all('data/sources/types', 'sourceType'),
    ...all('data/sources/statuses', 'sourceStatus'),
    ...all('data/sources/environments', 'sourceEnvironment'),
    ...all('data/sources/transports', 'sourceTransport'),
    ...all('data/sources/dataFormats', 'sourceDataFormat'),
    ...all('data/queries', 'query'),
    `data/alerts/${id.alert}`,
  ],
  signals: () => [
    ...all('entity_type', 'entityType', 'entityType2'),
    ...all('entity', 'entity'),
    `entity/${id.entity}/cases/30`,
    `entity/${id.entity}/signal_instances/30`,
    ...all('signals', 'signal'),
    'signals/filters?itemsPerPage=-1',
    ...all('signals/engagements', 'engagement'),
    'signals/instances?itemsPerPage=-1',
    'signals/instances?page=1&itemsPerPage=25&descending[]=true&sortBy[]=created_at',
  ],
  plugins: () => [
    'plugins?itemsPerPage=-1',
    'plugins/plugin_events',
    'plugins/instances?itemsPerPage=-1',
    `plugins/instances/${id.workflowInstance}`,
    `plugins/instances/${id.pluginInstance}`,
    ...all('workflows', 'workflow'),
    `workflows/instances/${id.workflowRun}`,
  ],
  'incidents-by-id': () => ['restricted', 'open', 'full', 'memberIncident', 'stable', 'closed', 'escalated'].map((k) => `incidents/${id[k]}`),
  'incidents-lists': () => [
    'incidents',
    'incidents?itemsPerPage=-1',
    'incidents?itemsPerPage=-1&expand=true',
    `incidents?page=1&itemsPerPage=25&descending[]=true&sortBy[]=reported_at&filter=${projectFilter}`,
    `incidents?page=1&itemsPerPage=25&descending[]=true&sortBy[]=reported_at&filter=${projectFilter}&${include(INCIDENT_TABLE_FIELDS)}&expand=true`,
    `incidents?itemsPerPage=-1&${include(DISPATCH_DASHBOARD)}`,
    `incidents?itemsPerPage=-1&${include(INCIDENT_DASHBOARD)}`,
    `incidents?page=1&itemsPerPage=200&${include(INCIDENT_CSV)}`,
    `incidents?itemsPerPage=20&q=one&${include(PICKER)}`,
    'incidents/metric/forecast',
  ],
  'incident-children': () => [...all('tasks'), ...all('feedback', 'feedback', 'hiddenFeedback'), `workflows/instances/${id.workflowRun}`],
  'cases-by-id': () => [
    ...['signalCase', 'restrictedCase', 'relatedCase', 'case', 'memberCase'].map((k) => `cases/${id[k]}`),
    `cases/${id.case}/participants`,
    `cases/${id.restrictedCase}/participants`,
  ],
  'cases-lists': () => [
    'cases',
    'cases?itemsPerPage=-1',
    'cases?itemsPerPage=-1&expand=true',
    `cases?page=1&itemsPerPage=25&descending[]=true&sortBy[]=reported_at&filter=${projectFilter}&${include(CASE_TABLE)}`,
    `cases?page=1&itemsPerPage=25&descending[]=true&sortBy[]=reported_at&filter=${projectFilter}&${include(CASE_TABLE_FIELDS)}`,
    `cases?itemsPerPage=-1&${include(CASE_DASHBOARD)}`,
    `cases?itemsPerPage=20&q=case&${include(PICKER)}`,
  ],
  search: () => [
    'search?q=one&type[]=Incident&type[]=Case',
    'search?q=case&type[]=Case',
    `search?q=payments&${SEARCH_TYPES}`,
    `search?q=hidden&${SEARCH_TYPES}`,
    `search?q=o&${SEARCH_TYPES}`,
  ],
};

/**
 * Every sequence of the schema set to follow its table's highest id. The embedded template image is a
 * copy of a running database: restored, each sequence it had used resumes past the values PostgreSQL
 * logs ahead (32), where a server's template copy resumes right after its highest id.
 */
const ALIGN_SEQUENCES = `DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT s.oid::regclass::text AS seq, t.oid::regclass::text AS tbl, a.attname AS col
    FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
    JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE d.deptype IN ('a', 'i') AND n.nspname = 'public'
  LOOP
    EXECUTE format('SELECT setval(%L, coalesce((SELECT max(%I) FROM %s), 0) + 1, false)', r.seq, r.col, r.tbl);
  END LOOP;
END $$`;

beforeAll(async () => {
  const t = await createTestApp({ uiUrl: 'https://muster.example.com', outboundAllow: LOCAL_PEERS });
  await t.database.query(ALIGN_SEQUENCES);
  w = await populate(t);
  await buildWorld();
});
afterAll(() => w?.t.close());

/**
 * An open case's classic cost grows with the clock (one unit about every 100 s of its roles): its
 * roles still held are moved to have begun at most 20 s before each group is read, so that a slow run
 * reads the same costs as a fast one.
 */
const PIN_CLOCKED_COSTS = `UPDATE participant_role r SET assumed_at = greatest(r.assumed_at, now() - interval '20 seconds')
  FROM participant p JOIN "case" c ON c.id = p.case_id
  WHERE p.id = r.participant_id AND c.status IN ('New', 'Triage') AND r.renounced_at IS NULL`;

/**
 * Where `got` first differs from the pinned text, per answer: the request and a few hundred
 * characters around the difference. An answer is one line of thousands of characters, which a
 * snapshot's own diff prints whole, so that a log that keeps only its end shows none of it.
 */
function differences(pinned: string, got: string): string {
  const [want, have] = [pinned.split('\n'), got.split('\n')];
  const out: string[] = [];
  let request = '';
  for (let i = 0; i < Math.max(want.length, have.length) && out.length < 3; i++) {
    if (have[i]?.startsWith('### ')) request = have[i];
    if (want[i] === have[i]) continue;
    const [a, b] = [want[i] ?? '', have[i] ?? ''];
    let at = 0;
    while (a[at] === b[at]) at++;
    const around = (text: string) => text.slice(Math.max(0, at - 200), at + 200);
    out.push(`${request}\n  pinned: …${around(a)}…\n  read:   …${around(b)}…`);
  }
  return out.join('\n');
}

describe('read answers, byte for byte', () => {
  for (const [name, paths] of Object.entries(GROUPS))
    it(name, async () => {
      await w.t.database.query(PIN_CLOCKED_COSTS);
      const got = await sample(paths());
      const file = new URL(`./fixtures/read-sample/${name}.txt`, import.meta.url);
      if (expect.getState().snapshotState.snapshotUpdateState !== 'all' && existsSync(file)) {
        const pinned = readFileSync(file, 'utf8');
        if (pinned !== got) expect.fail(`${name} reads otherwise than pinned:\n${differences(pinned, got)}`);
      }
      await expect(got).toMatchFileSnapshot(fileURLToPath(file));
    });
});
