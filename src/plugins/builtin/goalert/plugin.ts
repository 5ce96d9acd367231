// GoAlert as Muster's on-call system. A Muster service maps to a GoAlert service by its external_id
// (the GoAlert service id). Who is on call: the service's on-call users at the first step of its
// escalation policy now (GraphQL), their e-mail read from the user. Paging: an alert through the
// service's generic API integration key (POST /api/v2/generic/incoming?token=…) with a dedup per
// record, so a retried page is one alert; the record closing sends `action: close` with it.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import { VendorError, vendorFetch } from '../../../lib/outbound/vendor.ts';
import { ConfigurationRefused, type Configuration, type Contact, type OncallPlugin, type OncallService, type PluginEnv, type Subject } from '../../types.ts';
import { type GoalertService, graphql, VENDOR } from './graphql.ts';

const TIMEOUT_MS = 10_000;

const configuration = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      minLength: 1,
      'x-secret-bound': ['api_key', 'integration_key'],
      description: "GoAlert's address (https://goalert.example.com)",
    }),
    api_key: Type.String({ minLength: 1, writeOnly: true, description: 'A GoAlert API key (Admin → API Keys) created for the query docs/oncall.md shows' }),
    integration_key: Type.Optional(
      Type.String({ writeOnly: true, description: 'Generic API integration key for services without one of their own (whoever holds it can page)' }),
    ),
  },
  { additionalProperties: false },
);

const str = (v: unknown) => (typeof v === 'string' ? v : '');

const readService = async (service: OncallService, config: Configuration, env: PluginEnv): Promise<GoalertService> => {
  const data = await graphql<{ service: GoalertService | null }>(
    str(config.url),
    str(config.api_key),
    'MusterService',
    { id: service.external_id },
    `reading service ${service.external_id}`,
    env,
  );
  if (!data.service) throw new VendorError(`${VENDOR} has no service ${service.external_id}: check the service's external id in Muster`, 404);
  return data.service;
};

/** The service's generic API integration key (the `token` of its href), else the configured one. */
async function tokenOf(service: OncallService, config: Configuration, env: PluginEnv): Promise<string> {
  const svc = await readService(service, config, env);
  const generic = svc.integrationKeys.find((k) => k.type === 'generic');
  const token = (generic && URL.canParse(generic.href) && new URL(generic.href).searchParams.get('token')) || str(config.integration_key);
  if (!token) throw new VendorError(`${VENDOR} service ${service.external_id} has no generic API integration key: add one, or set integration_key`, 0);
  return token;
}

/** One dedup per record: GoAlert keeps one open alert for it, and closes it with the same. */
export const dedupOf = (subject: Subject, namePrefix: string) => `${namePrefix}-${subject.organization.slug}-${subject.kind}-${subject.id}`;

async function sendAlert(config: Configuration, token: string, body: Record<string, string>, env: PluginEnv) {
  const url = `${str(config.url).replace(/\/+$/, '')}/api/v2/generic/incoming?token=${encodeURIComponent(token)}`;
  const res = await vendorFetch(
    env.outbound,
    { words: { vendor: VENDOR, credential: 'the integration key' }, what: `generic API ${body.action ?? 'alert'}`, log: env.log },
    url,
    { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS },
  );
  await res.body?.cancel();
}

export const goalertPlugin: OncallPlugin = {
  slug: 'goalert-oncall',
  title: 'GoAlert Plugin - On-call',
  type: 'oncall',
  ...authoredByMuster,
  description:
    "Finds who is on call for a GoAlert service, pages it through the service's generic API integration and closes the alert when the record closes.",
  configuration,

  async check(config, env) {
    // A key GoAlert refuses cannot work; an unknown service answers null, which is fine here.
    try {
      await graphql(str(config.url), str(config.api_key), 'MusterService', { id: '00000000-0000-0000-0000-000000000000' }, 'checking the API key', env);
    } catch (err) {
      if (err instanceof VendorError && (err.status === 401 || err.status === 403)) throw new ConfigurationRefused('api_key', err.message);
    }
  },

  async getOncall(service, config, env): Promise<Contact | null> {
    const svc = await readService(service, config, env);
    const first = [...svc.onCallUsers].sort((a, b) => a.stepNumber - b.stepNumber)[0];
    if (!first) return null;
    const { user } = await graphql<{ user: { email?: string; name?: string } | null }>(
      str(config.url),
      str(config.api_key),
      'MusterUser',
      { id: first.userID },
      'reading a user',
      env,
    );
    return user?.email ? { email: user.email, fullname: user.name ?? first.userName } : null;
  },

  async page(service, subject, config, env) {
    const label = subject.name ?? `${subject.kind} ${subject.id}`;
    const details = [
      subject.description,
      '',
      `Status: ${subject.status}`,
      subject.priority ? `Priority: ${subject.priority}` : '',
      subject.severity ? `Severity: ${subject.severity}` : '',
      subject.owner ? `Owner: ${subject.owner}` : '',
      `In Muster: ${subject.weblink}`,
    ].filter((line, i) => i < 2 || line);
    await sendAlert(
      config,
      await tokenOf(service, config, env),
      { summary: `${label}: ${subject.title}`, details: details.join('\n'), dedup: dedupOf(subject, env.namePrefix) },
      env,
    );
  },

  async resolve(service, subject, config, env) {
    await sendAlert(config, await tokenOf(service, config, env), { summary: subject.title, action: 'close', dedup: dedupOf(subject, env.namePrefix) }, env);
  },
};
