// An incident's tactical and notifications groups as Google Groups, through the Admin SDK's
// Directory API: made with groups.insert at <name>@<configured domain>, their members brought in
// line with the record's people (members.insert, members.delete) when its people change and each
// time a message goes to one.
// Messages go to the group's own address, and Google delivers them to its members.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import type { Configuration, ParticipantGroup, ParticipantGroupPlugin, PluginEnv } from '../../types.ts';
import { apiOptions, SCOPES } from './auth.ts';
import { checkGoogle } from './check.ts';
import { googleConfiguration } from './config.ts';
import { call, callUnlessGone, translate } from './errors.ts';

const directoryOf = async (config: Configuration, env: PluginEnv) =>
  (await import('@googleapis/admin')).admin({ version: 'directory_v1', ...(await apiOptions(config, env, SCOPES.groups)) });

/** A group already there (a retried job made it): 409 from groups.insert or members.insert. */
const exists = (err: unknown) => err instanceof VendorError && err.status === 409;

/** Every member of the group, a page at a time. */
async function membersOf(directory: Awaited<ReturnType<typeof directoryOf>>, groupKey: string) {
  const found: { email: string; role: string }[] = [];
  let pageToken: string | undefined;
  do {
    const page = await call('Directory members.list', () => directory.members.list({ groupKey, maxResults: 200, pageToken }));
    for (const m of page.members ?? []) if (m.email) found.push({ email: m.email.toLowerCase(), role: m.role ?? 'MEMBER' });
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return found;
}

/** Brings the group's MEMBER list in line with `members`: newcomers inserted, those gone deleted. */
async function keepMembers(group: ParticipantGroup, members: string[], config: Configuration, env: PluginEnv): Promise<void> {
  const directory = await directoryOf(config, env);
  const groupKey = group.resource_id ?? group.email;
  const wanted = new Set(members.map((m) => m.toLowerCase()));
  const current = await membersOf(directory, groupKey);
  const have = new Set(current.map((m) => m.email));
  for (const email of wanted) {
    if (have.has(email)) continue;
    try {
      await directory.members.insert({ groupKey, requestBody: { email, role: 'MEMBER' } });
    } catch (err) {
      const failure = translate('Directory members.insert', err);
      if (!exists(failure)) throw failure;
    }
  }
  // Owners and managers were made so by a person in the Admin console: Muster leaves them.
  for (const m of current)
    if (m.role === 'MEMBER' && !wanted.has(m.email))
      await callUnlessGone('Directory members.delete', () => directory.members.delete({ groupKey, memberKey: m.email }));
}

export const googleGroupsPlugin: ParticipantGroupPlugin = {
  slug: 'google-group-participant-group',
  title: 'Google Workspace Plugin - Groups',
  type: 'participant_group',
  ...authoredByMuster,
  description: "Makes each incident's tactical and notifications groups in Google Groups and keeps their members the record's people.",
  check: checkGoogle(SCOPES.groups),
  configuration: googleConfiguration({
    domain: Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: '^[A-Za-z0-9.-]+$',
      description: 'Workspace domain of the groups\u2019 addresses (one of the account\u2019s domains)',
    }),
  }),
  async create(subject, kind, config, env) {
    const directory = await directoryOf(config, env);
    const base = (subject.name ?? `${env.namePrefix}-${subject.kind}-${subject.id}`).toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
    const name = kind === 'tactical' ? base : `${base}-notifications`;
    const email = `${name}@${config.domain}`;
    const description = kind === 'tactical' ? `The people of ${subject.name ?? subject.title}` : `Those who follow ${subject.name ?? subject.title}`;
    let group: { id?: string | null; email?: string | null };
    try {
      group = await call('Directory groups.insert', () => directory.groups.insert({ requestBody: { email, name, description } }));
    } catch (err) {
      if (!exists(err)) throw err;
      group = await call('Directory groups.get', () => directory.groups.get({ groupKey: email }));
    }
    return {
      name,
      email: group.email ?? email,
      resource_id: group.id ?? email,
      resource_type: `google-group-${kind}`,
      weblink: `https://groups.google.com/a/${config.domain}/g/${name}`,
      description,
    };
  },
  members: keepMembers,
  async recipients(group, members, config, env) {
    await keepMembers(group, members, config, env);
    return [group.email];
  },
};
