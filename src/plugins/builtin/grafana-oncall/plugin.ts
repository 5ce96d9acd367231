// Grafana OnCall OSS or Grafana IRM as Muster's on-call system. A Muster service maps to an OnCall
// schedule by its external_id (the schedule id, "SBM7DV7BKFUYU"): who is on call is the schedule's
// first `on_call_now` user, their e-mail read from the user. Paging goes to a Formatted Webhook
// integration's inbound URL (its routes and escalation chains decide who is notified), one alert
// group per record by `alert_uid`; the record closing sends the same alert with `state: ok`.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import { ConfigurationRefused, type Configuration, type Contact, type OncallPlugin, type OncallService, type PluginEnv, type Subject } from '../../types.ts';
import { apiGet, type OncallUser, type Schedule, sendAlert } from './api.ts';

const configuration = Type.Object(
  {
    api_url: Type.String({
      format: 'uri',
      minLength: 1,
      'x-secret-bound': ['api_token'],
      description: "The OnCall API URL (OnCall's settings page shows it; without /api/v1)",
    }),
    api_token: Type.String({
      minLength: 1,
      writeOnly: true,
      description: 'An OnCall API token (or an IRM service account token), read access to schedules and users',
    }),
    grafana_url: Type.Optional(
      Type.String({ format: 'uri', 'x-secret-bound': ['api_token'], description: 'Grafana Cloud IRM only: the stack URL, sent as X-Grafana-URL' }),
    ),
    webhook_url: Type.String({
      format: 'uri',
      minLength: 1,
      writeOnly: true,
      description: "A Formatted Webhook integration's inbound URL (whoever holds it can page)",
    }),
  },
  { additionalProperties: false },
);

/** One alert group per record: the same uid groups the page and resolves it. */
export const alertUidOf = (subject: Subject, namePrefix: string) => `${namePrefix}-${subject.organization.slug}-${subject.kind}-${subject.id}`;

const scheduleOf = (service: OncallService, config: Configuration, env: PluginEnv) =>
  apiGet<Schedule>(config, `/schedules/${encodeURIComponent(service.external_id)}/`, `reading schedule ${service.external_id}`, env);

function alertOf(subject: Subject, state: 'alerting' | 'ok', namePrefix: string) {
  const label = subject.name ?? `${subject.kind} ${subject.id}`;
  const lines = [
    subject.description,
    `Status: ${subject.status}`,
    subject.priority && `Priority: ${subject.priority}`,
    subject.severity && `Severity: ${subject.severity}`,
    subject.owner && `Owner: ${subject.owner}`,
  ];
  return {
    alert_uid: alertUidOf(subject, namePrefix),
    title: `${label}: ${subject.title}`,
    state,
    link_to_upstream_details: subject.weblink,
    message: lines.filter(Boolean).join('\n'),
  };
}

export const grafanaOncallPlugin: OncallPlugin = {
  slug: 'grafana-oncall',
  title: 'Grafana OnCall Plugin - On-call',
  type: 'oncall',
  ...authoredByMuster,
  description:
    'Finds who is on call in a Grafana OnCall (or IRM) schedule, pages through a Formatted Webhook integration and resolves the alert when the record closes.',
  configuration,

  async check(config, env) {
    try {
      await apiGet(config, '/schedules/', 'checking the API token', env);
    } catch (err) {
      if (err instanceof VendorError && (err.status === 401 || err.status === 403)) throw new ConfigurationRefused('api_token', err.message);
    }
  },

  async getOncall(service, config, env): Promise<Contact | null> {
    const schedule = await scheduleOf(service, config, env);
    const first = schedule.on_call_now?.[0];
    if (!first) return null;
    const user = await apiGet<OncallUser>(config, `/users/${encodeURIComponent(first)}/`, 'reading a user', env);
    return user.email ? { email: user.email, fullname: user.name ?? user.username ?? null } : null;
  },

  async page(_service, subject, config, env) {
    await sendAlert(config, alertOf(subject, 'alerting', env.namePrefix), env);
  },

  async resolve(_service, subject, config, env) {
    await sendAlert(config, alertOf(subject, 'ok', env.namePrefix), env);
  },
};
