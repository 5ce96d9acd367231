// The plain record groups of the settings area, one declaration each: the API path, the table's
// columns, the form's fields, and the group's own Create/Update shapes the form is checked against.
import { ColorSwatch, Group, Text } from '@mantine/core';
import { SHAPES } from './shapes.ts';
import { cellText } from './records/body.ts';
import type { ColumnDecl, FieldDecl, Row, SectionDecl } from './records/declaration.ts';

const name: ColumnDecl = { key: 'name', header: 'Name', sortable: true };
const description: ColumnDecl = { key: 'description', header: 'Description' };
// Only where the read object carries its project (contacts, services and notifications do not).
const project: ColumnDecl = { key: 'project', header: 'Project' };
const flag = (key: string, header: string): ColumnDecl => ({ key, header, sortable: true });
const color: ColumnDecl = {
  key: 'color',
  header: 'Colour',
  render: (row) =>
    row.color ? (
      <Group gap={6} wrap="nowrap">
        <ColorSwatch color={String(row.color)} size={14} aria-hidden />
        <Text size="sm">{String(row.color)}</Text>
      </Group>
    ) : (
      '-'
    ),
};

const text = (n: string, label: string, more: Partial<FieldDecl> = {}): FieldDecl => ({ name: n, label, kind: 'text', ...more });
const area = (n: string, label: string): FieldDecl => ({ name: n, label, kind: 'textarea' });
const bool = (n: string, label: string, more: Partial<FieldDecl> = {}): FieldDecl => ({ name: n, label, kind: 'bool', ...more });
const number = (n: string, label: string, more: Partial<FieldDecl> = {}): FieldDecl => ({ name: n, label, kind: 'number', ...more });
const email = (n: string, label: string): FieldDecl => ({ name: n, label, kind: 'email' });

/** Search filters are a list an omitted field would empty: an edit sends them back by id. */
const keepFilters = (row: Row) => ({ filters: ((row.filters as Row[] | undefined) ?? []).map((f) => ({ id: f.id })) });

/** Priorities and severities of incidents and cases: one kind of record (crud/ranked.ts on the server). */
function ranked(
  key: string,
  title: string,
  thing: string,
  path: string,
  shapes: { create: SectionDecl['create']; update: SectionDecl['update'] },
  own: FieldDecl[] = [],
): SectionDecl {
  return {
    key,
    title,
    thing,
    path,
    ...shapes,
    projectScoped: true,
    sort: 'view_order',
    columns: [name, description, color, flag('view_order', 'Order'), flag('default', 'Default'), flag('enabled', 'Enabled'), project],
    fields: [
      text('name', 'Name'),
      area('description', 'Description'),
      { name: 'color', label: 'Colour', kind: 'color' },
      number('view_order', 'Order in lists'),
      bool('default', 'Default'),
      bool('enabled', 'Enabled', { initial: true }),
      ...own,
    ],
  };
}

const typeFields: FieldDecl[] = [
  text('name', 'Name'),
  area('description', 'Description'),
  { name: 'visibility', label: 'Visibility of new records', kind: 'select', options: ['Open', 'Restricted'] },
  bool('default', 'Default'),
  bool('enabled', 'Enabled', { initial: true }),
  bool('exclude_from_metrics', 'Leave out of metrics'),
];

export const SECTIONS: SectionDecl[] = [
  {
    key: 'projects',
    title: 'Projects',
    thing: 'project',
    path: '/projects',
    ...SHAPES.project,
    canDelete: true,
    createExtra: (organization) => ({ organization: { slug: organization } }),
    columns: [
      name,
      { key: 'display_name', header: 'Display name', sortable: true },
      description,
      color,
      flag('default', 'Default'),
      flag('enabled', 'Enabled'),
      flag('allow_self_join', 'Self-join'),
    ],
    fields: [
      text('name', 'Name'),
      text('display_name', 'Display name', { description: 'Shown in tables and pickers; empty: the name' }),
      area('description', 'Description'),
      { name: 'color', label: 'Colour', kind: 'color' },
      bool('default', 'Default project'),
      bool('enabled', 'Offered on report forms', { initial: true }),
      bool('allow_self_join', 'Members may join open incidents themselves', { initial: true }),
      number('annual_employee_cost', 'Annual employee cost'),
      number('business_year_hours', 'Business hours in a year'),
      email('owner_email', 'Owner email'),
      text('owner_conversation', 'Owner conversation'),
    ],
  },
  ranked('incident-priorities', 'Incident priorities', 'incident priority', '/incident_priorities', SHAPES.incidentPriority, [
    bool('page_commander', 'Page the commander'),
    number('tactical_report_reminder', 'Tactical report reminder (hours)'),
    number('executive_report_reminder', 'Executive report reminder (hours)'),
  ]),
  ranked('incident-severities', 'Incident severities', 'incident severity', '/incident_severities', SHAPES.incidentSeverity),
  {
    key: 'incident-types',
    title: 'Incident types',
    thing: 'incident type',
    path: '/incident_types',
    ...SHAPES.incidentType,
    projectScoped: true,
    columns: [name, description, flag('visibility', 'Visibility'), { key: 'default', header: 'Default' }, { key: 'enabled', header: 'Enabled' }, project],
    fields: typeFields,
  },
  {
    key: 'incident-cost-types',
    title: 'Incident cost types',
    thing: 'incident cost type',
    path: '/incident_cost_types',
    ...SHAPES.incidentCostType,
    projectScoped: true,
    canDelete: true,
    columns: [name, description, flag('category', 'Category'), flag('default', 'Default'), flag('editable', 'Editable')],
    fields: [
      text('name', 'Name'),
      area('description', 'Description'),
      text('category', 'Category'),
      bool('default', 'Default'),
      bool('editable', 'Editable', { initial: true }),
    ],
  },
  ranked('case-priorities', 'Case priorities', 'case priority', '/case_priorities', SHAPES.casePriority, [bool('page_assignee', 'Page the assignee')]),
  ranked('case-severities', 'Case severities', 'case severity', '/case_severities', SHAPES.caseSeverity),
  {
    key: 'case-types',
    title: 'Case types',
    thing: 'case type',
    path: '/case_types',
    ...SHAPES.caseType,
    projectScoped: true,
    columns: [
      name,
      description,
      flag('visibility', 'Visibility'),
      { key: 'incident_type', header: 'Incident type' },
      { key: 'default', header: 'Default' },
      { key: 'enabled', header: 'Enabled' },
      project,
    ],
    fields: [
      ...typeFields,
      { name: 'incident_type', label: 'Incident type of escalated cases', kind: 'picker', picker: { path: '/incident_types', projectScoped: true } },
      text('conversation_target', 'Conversation target', { description: 'Where case conversations go when cases get no channel of their own' }),
    ],
  },
  {
    key: 'tag-types',
    title: 'Tag types',
    thing: 'tag type',
    path: '/tag_types',
    ...SHAPES.tagType,
    projectScoped: true,
    canDelete: true,
    columns: [name, description, flag('exclusive', 'Exclusive'), project],
    fields: [
      text('name', 'Name'),
      area('description', 'Description'),
      bool('exclusive', 'Exclusive (one tag of the type per record)'),
      ...(['incident', 'case', 'signal', 'query', 'source', 'document'] as const).map((kind) => bool(`discoverable_${kind}`, `Offered on ${kind}s`)),
    ],
  },
  {
    key: 'tags',
    title: 'Tags',
    thing: 'tag',
    path: '/tags',
    ...SHAPES.tag,
    projectScoped: true,
    canDelete: true,
    columns: [name, { key: 'tag_type', header: 'Tag type' }, description, flag('source', 'Source'), flag('discoverable', 'Discoverable'), project],
    fields: [
      { name: 'tag_type', label: 'Tag type', kind: 'picker', picker: { path: '/tag_types', projectScoped: true } },
      text('name', 'Name'),
      area('description', 'Description'),
      text('uri', 'URI'),
      text('source', 'Source'),
      text('external_id', 'External id'),
      bool('discoverable', 'Discoverable'),
    ],
  },
  {
    key: 'individuals',
    title: 'Individuals',
    thing: 'individual',
    path: '/individuals',
    ...SHAPES.individual,
    projectScoped: true,
    canDelete: true,
    sort: 'email',
    keepOnUpdate: keepFilters,
    columns: [{ key: 'email', header: 'Email', sortable: true }, name, flag('title', 'Title'), flag('company', 'Company'), flag('is_active', 'Active')],
    fields: [
      email('email', 'Email'),
      text('name', 'Name'),
      text('title', 'Title'),
      text('company', 'Company'),
      text('weblink', 'Web link'),
      text('mobile_phone', 'Mobile phone'),
      text('office_phone', 'Office phone'),
      area('notes', 'Notes'),
      bool('is_active', 'Active'),
      bool('is_external', 'External'),
    ],
  },
  {
    key: 'teams',
    title: 'Teams',
    thing: 'team',
    path: '/teams',
    ...SHAPES.team,
    projectScoped: true,
    canDelete: true,
    keepOnUpdate: keepFilters,
    columns: [name, { key: 'email', header: 'Email', sortable: true }, { key: 'company', header: 'Company' }, flag('is_active', 'Active')],
    fields: [
      text('name', 'Name'),
      email('email', 'Email'),
      text('company', 'Company'),
      area('notes', 'Notes'),
      bool('is_active', 'Active'),
      bool('evergreen', 'Remind the owner to review it'),
      email('evergreen_owner', 'Review owner'),
      number('evergreen_reminder_interval', 'Review every (days)'),
    ],
  },
  {
    key: 'services',
    title: 'Services',
    thing: 'service',
    path: '/services',
    ...SHAPES.service,
    projectScoped: true,
    canDelete: true,
    keepOnUpdate: keepFilters,
    columns: [name, flag('type', 'On-call plugin'), flag('external_id', 'External id'), flag('is_active', 'Active')],
    fields: [
      text('name', 'Name'),
      area('description', 'Description'),
      text('type', 'On-call plugin (slug)'),
      text('external_id', 'External id'),
      bool('is_active', 'Active', { initial: true }),
      bool('evergreen', 'Remind the owner to review it'),
      email('evergreen_owner', 'Review owner'),
      number('evergreen_reminder_interval', 'Review every (days)'),
    ],
  },
  {
    key: 'notifications',
    title: 'Notifications',
    thing: 'notification',
    path: '/notifications',
    ...SHAPES.notification,
    projectScoped: true,
    canDelete: true,
    keepOnUpdate: keepFilters,
    columns: [name, flag('type', 'Type'), { key: 'target', header: 'Target' }, flag('enabled', 'Enabled')],
    fields: [
      text('name', 'Name'),
      area('description', 'Description'),
      { name: 'type', label: 'Type', kind: 'select', options: ['conversation', 'email', 'webhook'] },
      text('target', 'Target', { description: 'A channel, an email address or an https URL, by type' }),
      bool('enabled', 'Enabled', { initial: true }),
    ],
  },
  {
    key: 'workflows',
    title: 'Workflows',
    thing: 'workflow',
    path: '/workflows',
    ...SHAPES.workflow,
    projectScoped: true,
    canDelete: true,
    // Parameters are edited in the API; an edit here keeps them.
    keepOnUpdate: (row) => ({ parameters: row.parameters ?? [] }),
    columns: [
      name,
      description,
      { key: 'resource_id', header: 'Resource id' },
      { key: 'plugin_instance', header: 'Plugin', render: (row) => cellText((row.plugin_instance as Row | undefined)?.plugin) },
      flag('enabled', 'Enabled'),
    ],
    fields: [
      text('name', 'Name'),
      area('description', 'Description'),
      text('resource_id', 'Resource id', { description: "The workflow's id in the workflow system" }),
      {
        name: 'plugin_instance',
        label: 'Workflow plugin instance',
        kind: 'picker',
        picker: {
          path: '/plugins/instances',
          projectScoped: true,
          filter: [{ model: 'PluginInstance', field: 'plugin_type', op: '==', value: 'workflow' }],
          label: (item) => `${cellText(item.plugin)} (#${item.id})`,
        },
      },
      bool('enabled', 'Enabled', { initial: true }),
    ],
  },
];
