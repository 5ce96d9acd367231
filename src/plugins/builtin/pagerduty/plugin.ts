// PagerDuty as Muster's on-call system. A Muster service maps to a PagerDuty service by its
// external_id (the PagerDuty service id, "PXXXXXX"). Who is on call: the service's escalation
// policy's first level now (REST: the service, then its on-calls, users included; schedule
// layers resolved by PagerDuty). Paging: an Events API v2 trigger to the service's Events API v2
// integration key (read from the service; `routing_key` when it has none), a dedup key per record;
// the record closing sends the resolve.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import { ConfigurationRefused, type Configuration, type Contact, type OncallPlugin, type OncallService, type PluginEnv, type Subject } from '../../types.ts';
import { resolveEvent, sendEvent, triggerEvent } from './events.ts';
import { DEFAULT_API_URL, DEFAULT_EVENTS_URL, type RestConfig, restGet, VENDOR } from './rest.ts';

const configuration = Type.Object(
  {
    api_url: Type.String({
      format: 'uri',
      default: DEFAULT_API_URL,
      'x-secret-bound': ['api_key'],
      description: 'PagerDuty REST API (https://api.eu.pagerduty.com for an EU account)',
    }),
    api_key: Type.String({ minLength: 1, writeOnly: true, description: 'A REST API key (read-only is enough): Integrations → API Access Keys' }),
    events_url: Type.String({
      format: 'uri',
      default: DEFAULT_EVENTS_URL,
      'x-secret-bound': ['routing_key'],
      description: 'PagerDuty Events API v2 (https://events.eu.pagerduty.com for an EU account)',
    }),
    routing_key: Type.Optional(
      Type.String({
        writeOnly: true,
        description: 'Integration key for services without an Events API v2 integration of their own (whoever holds it can page)',
      }),
    ),
  },
  { additionalProperties: false },
);

const str = (v: unknown, fallback = '') => (typeof v === 'string' && v ? v : fallback);
const restOf = (config: Configuration): RestConfig => ({ apiUrl: str(config.api_url, DEFAULT_API_URL), apiKey: str(config.api_key) });
const serviceId = (service: OncallService) => encodeURIComponent(service.external_id);

interface PdService {
  service: {
    id: string;
    escalation_policy?: { id: string };
    integrations?: { type?: string; integration_key?: string }[];
  };
}

interface PdOncalls {
  oncalls: { escalation_level: number; user?: { id: string; email?: string; name?: string; summary?: string } }[];
}

const readService = (service: OncallService, config: Configuration, env: PluginEnv) =>
  restGet<PdService>(restOf(config), `/services/${serviceId(service)}`, { 'include[]': ['integrations'] }, `reading service ${service.external_id}`, env);

/** The service's Events API v2 integration key, else the configured one. */
async function routingKeyOf(service: OncallService, config: Configuration, env: PluginEnv): Promise<string> {
  const { service: svc } = await readService(service, config, env);
  const own = svc.integrations?.find((i) => i.type === 'events_api_v2_inbound_integration' && i.integration_key)?.integration_key;
  const key = own ?? str(config.routing_key);
  if (!key) throw new VendorError(`${VENDOR} service ${service.external_id} has no Events API v2 integration: add one to the service, or set routing_key`, 0);
  return key;
}

export const pagerdutyPlugin: OncallPlugin = {
  slug: 'pagerduty-oncall',
  title: 'PagerDuty Plugin - On-call',
  type: 'oncall',
  ...authoredByMuster,
  description: 'Finds who is on call for a PagerDuty service, pages it through the Events API v2 and resolves the page when the record closes.',
  configuration,

  async check(config, env) {
    // Any REST key may read its abilities: a refused key is a configuration that cannot work.
    try {
      await restGet(restOf(config), '/abilities', {}, 'checking the API key', env);
    } catch (err) {
      if (err instanceof VendorError && (err.status === 401 || err.status === 403)) throw new ConfigurationRefused('api_key', err.message);
      // Unreachable or failing now: checked again by every job.
    }
  },

  async getOncall(service: OncallService, config: Configuration, env: PluginEnv): Promise<Contact | null> {
    const { service: svc } = await readService(service, config, env);
    const policy = svc.escalation_policy?.id;
    if (!policy) return null;
    const { oncalls } = await restGet<PdOncalls>(
      restOf(config),
      '/oncalls',
      { 'escalation_policy_ids[]': [policy], earliest: 'true', 'include[]': ['users'] },
      `reading the on-calls of escalation policy ${policy}`,
      env,
    );
    const first = [...(oncalls ?? [])].filter((o) => o.user).sort((a, b) => a.escalation_level - b.escalation_level)[0]?.user;
    if (!first) return null;
    let { email, name } = first;
    if (!email) {
      const { user } = await restGet<{ user: { email?: string; name?: string } }>(
        restOf(config),
        `/users/${encodeURIComponent(first.id)}`,
        {},
        'reading a user',
        env,
      );
      ({ email, name } = user);
    }
    return email ? { email, fullname: name ?? first.summary ?? null } : null;
  },

  async page(service: OncallService, subject: Subject, config: Configuration, env: PluginEnv): Promise<void> {
    const key = await routingKeyOf(service, config, env);
    await sendEvent(str(config.events_url, DEFAULT_EVENTS_URL), triggerEvent(key, service, subject, env.namePrefix), env);
  },

  async resolve(service: OncallService, subject: Subject, config: Configuration, env: PluginEnv): Promise<void> {
    const key = await routingKeyOf(service, config, env);
    await sendEvent(str(config.events_url, DEFAULT_EVENTS_URL), resolveEvent(key, subject, env.namePrefix), env);
  },
};
