// People: the organization itself, its members' accounts (their bcrypt hashes kept as they are:
// Muster verifies them and replaces them with its own on the next sign-in), their roles in the
// organization and its projects, and the contacts and teams that records name.
import { slugify } from '../../lib/slug.ts';
import type { Importer, Spec } from './copy.ts';
import type { SourceOrganization } from './source.ts';

export async function importOrganization(im: Importer, org: SourceOrganization): Promise<void> {
  await im.copy({ kind: 'organization', from: 'dispatch_core.organization', select: `SELECT * FROM dispatch_core.organization WHERE id = ${Number(org.id)}` });
  const id = im.target('organization', org.id);
  if (id === undefined) throw new Error(`organization ${org.slug} could not be written`);
  im.organizationId = id;
}

export async function importPeople(im: Importer, org: SourceOrganization): Promise<void> {
  const members = `SELECT dispatch_user_id FROM dispatch_core.dispatch_user_organization WHERE organization_id = ${Number(org.id)}`;
  await im.copy({
    kind: 'app_user',
    from: 'dispatch_core.dispatch_user',
    select: `SELECT u.*, convert_from(u.password, 'UTF8') AS password_hash FROM dispatch_core.dispatch_user u WHERE u.id IN (${members})`,
    rename: { password: 'password_hash' },
    // An account that signed in to Dispatch has shown its address works.
    values: (r) => ({ email_confirmed_at: r.created_at, service_account: false }),
    used: ['password'],
    // Muster replaces a Dispatch hash with its own at the first sign-in; from then on the password is Muster's.
    guard: { password: "t.password NOT LIKE 'scrypt%'" },
    lost: { last_mfa_time: 'Muster keeps no MFA state', experimental_features: 'Muster has no experimental features switch' },
  });
  await im.copy({
    kind: 'user_organization',
    from: 'dispatch_core.dispatch_user_organization',
    select: `SELECT dispatch_user_id AS user_id, role, created_at FROM dispatch_core.dispatch_user_organization WHERE organization_id = ${Number(org.id)}`,
    link: ['user_id', 'organization_id'],
    refs: { user_id: 'app_user' },
    values: () => ({ default: false }),
  });
}

export async function importProjects(im: Importer): Promise<void> {
  await im.copy({
    kind: 'project',
    from: 'project',
    values: (r) => ({ slug: slugify(String(r.name), '-'), display_name: r.display_name || r.name }),
    lost: { organization_id: 'the organization is the one being imported' },
    used: ['organization_id'],
  });
  await im.copy({
    kind: 'user_project',
    from: 'dispatch_user_project',
    select: 'SELECT dispatch_user_id AS user_id, project_id, role, "default", created_at FROM {s}.dispatch_user_project',
    link: ['user_id', 'project_id'],
    refs: { user_id: 'app_user', project_id: 'project' },
  });
}

/** A project record: its project followed through the map, more references as given. */
export const inProject = (kind: string, from: string, more: Partial<Spec> = {}): Spec => ({
  kind,
  from,
  ...more,
  refs: { project_id: 'project', ...more.refs },
});

/** An association table between two mapped kinds. */
export const linking = (kind: string, from: string, cols: Record<string, [string, string]>): Spec => ({
  kind,
  from,
  select: `SELECT ${Object.entries(cols)
    .map(([to, [src]]) => `"${src}" AS "${to}"`)
    .join(', ')} FROM {s}."${from}"`,
  link: Object.keys(cols),
  refs: Object.fromEntries(Object.entries(cols).map(([to, [, kind]]) => [to, kind])),
});

export const contactSpecs: Spec[] = [
  inProject('search_filter', 'search_filter', { refs: { creator_id: 'app_user' }, lost: { enabled: 'Muster search filters are always on' } }),
  inProject('service', 'service', { lost: { shift_hours_type: 'Muster has no shift hours', health_metrics: 'Muster has no service health metrics' } }),
  linking('service_filter', 'assoc_service_filters', { service_id: ['service_id', 'service'], search_filter_id: ['search_filter_id', 'search_filter'] }),
  inProject('individual_contact', 'individual_contact', { lost: { team_contact_id: 'Muster keeps no team of an individual' } }),
  linking('individual_contact_filter', 'assoc_individual_contact_filters', {
    individual_contact_id: ['individual_contact_id', 'individual_contact'],
    search_filter_id: ['search_filter_id', 'search_filter'],
  }),
  inProject('team_contact', 'team_contact'),
  linking('team_contact_filter', 'assoc_team_contact_filters', {
    team_contact_id: ['team_contact_id', 'team_contact'],
    search_filter_id: ['search_filter_id', 'search_filter'],
  }),
  inProject('notification', 'notification'),
  linking('notification_filter', 'assoc_notification_filters', {
    notification_id: ['notification_id', 'notification'],
    search_filter_id: ['search_filter_id', 'search_filter'],
  }),
];
