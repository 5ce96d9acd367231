// jira.js's API surface over Muster's one way out. jira.js 6 sends its requests with the global
// fetch and takes no other, but its factories accept any object with `sendRequest`: this is one,
// over `env.outbound.fetch`, so every Jira call meets the outbound policy. Jira Cloud is reached
// with e-mail and API token (Basic), Data Center with a personal access token (Bearer) on REST v2,
// whose paths are v3's with the version changed.
import type { CloudClient } from 'jira.js';
import type { Client, SendRequestOptions } from 'jira.js/core';
import { failureOf, type Outbound } from '../../../lib/outbound/client.ts';
import { unanswered, type VendorWords, vendorFailure } from '../../../lib/outbound/vendor.ts';
import type { PluginLog } from '../../types.ts';
import type { JiraConfig } from './config.ts';

/** Jira's own words on a refused request (`errorMessages` and field `errors`), for the operator's log and 400s. */
function jiraMessages(body: string): string {
  try {
    const parsed = JSON.parse(body) as { errorMessages?: string[]; errors?: Record<string, string> };
    return [...(parsed.errorMessages ?? []), ...Object.entries(parsed.errors ?? {}).map(([field, msg]) => `${field}: ${msg}`)].join('; ');
  } catch {
    return '';
  }
}

/** Jira's words for what its calls need: Cloud takes an e-mail and API token, Data Center a personal access token. */
const jiraWords = (config: JiraConfig): VendorWords => ({
  vendor: 'Jira',
  credential: config.hosting === 'cloud' ? 'the e-mail and API token' : 'the personal access token',
  check: config.hosting === 'cloud' ? "check them in the plugin's configuration" : undefined,
  permission: 'the account lacks a permission for it',
  missing: 'check the project and issue type configured',
});

const API_3 = '/rest/api/3/';

function urlOf(config: JiraConfig, options: SendRequestOptions<unknown>): URL {
  let path = options.url.startsWith('/') ? options.url : `/${options.url}`;
  if (config.hosting === 'data_center' && path.startsWith(API_3)) path = `/rest/api/2/${path.slice(API_3.length)}`;
  const url = new URL(config.api_url.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(options.searchParams ?? {})) {
    if (v === undefined || v === null) continue;
    url.searchParams.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return url;
}

const authorization = (config: JiraConfig) =>
  config.hosting === 'cloud' ? `Basic ${Buffer.from(`${config.email ?? ''}:${config.api_token}`).toString('base64')}` : `Bearer ${config.api_token}`;

/** What a request is about, for messages: `issue MUS-1`, `project MUS`, `user search`. */
function subjectOf(path: string): string {
  const m = /\/rest\/api\/\d\/(issue|project|user\/search|myself)(?:\/([^/?]+))?/.exec(path);
  if (!m) return 'the request';
  if (m[1] === 'user/search') return 'the user search';
  if (m[1] === 'myself') return 'the account';
  return m[2] ? `${m[1]} ${decodeURIComponent(m[2])}` : `the ${m[1]}`;
}

/** A jira.js transport over the outbound client. */
export function jiraTransport(config: JiraConfig, outbound: Outbound, log: PluginLog, timeoutMs?: number): Client {
  return {
    async sendRequest<T>(options: SendRequestOptions<T>): Promise<T> {
      const url = urlOf(config, options as SendRequestOptions<unknown>);
      const hasBody = options.body !== undefined && options.body !== null;
      let res: Response;
      try {
        res = await outbound.fetch(url, {
          method: options.method ?? 'GET',
          headers: {
            accept: 'application/json',
            authorization: authorization(config),
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
            ...options.headers,
          },
          body: hasBody ? JSON.stringify(options.body) : undefined,
          timeoutMs,
        });
      } catch (err) {
        log.warn(`Jira ${options.method ?? 'GET'} ${url.pathname}: ${failureOf(err)}`);
        throw unanswered('Jira', err);
      }
      const text = await res.text();
      if (!res.ok) {
        const said = jiraMessages(text);
        log.warn(`Jira ${options.method ?? 'GET'} ${url.pathname} answered ${res.status}${said ? `: ${said}` : ''}`);
        throw vendorFailure(jiraWords(config), {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          doing: `for ${subjectOf(url.pathname)}`,
          detail: said || undefined,
        });
      }
      if (!text) return undefined as T;
      const body = JSON.parse(text) as unknown;
      // jira.js's schemas describe Cloud's answers; a Data Center answer that differs is used as it is.
      const parsed = options.schema?.safeParse(body);
      return (parsed?.success ? parsed.data : body) as T;
    },
  };
}

/**
 * jira.js's client for the configured site, through the outbound client. jira.js is loaded on first
 * use: it costs about 0.7 s of CPU to load, which every `muster` start would pay otherwise.
 */
export async function jiraClient(config: JiraConfig, outbound: Outbound, log: PluginLog, timeoutMs?: number): Promise<CloudClient> {
  const { createCloudClient } = await import('jira.js');
  return createCloudClient(jiraTransport(config, outbound, log, timeoutMs));
}
