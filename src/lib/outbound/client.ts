// The one way out for plugins and notifications: a fetch-compatible client over node:http(s)
// whose agents check every address when the connection is made (the `lookup` hook: DNS cannot
// answer one address to a check and another to the connection), http and https only, no
// redirects followed (a 3xx is answered to the caller as it came), a time limit on the whole
// exchange and on the size of an answer. SMTP goes through `resolve`: the checked address is
// what the mail client connects to, the host name kept for TLS.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { OutboundPolicy, OutboundRefused } from './policy.ts';

export { OutboundPolicy, OutboundRefused } from './policy.ts';

const DEFAULT_TIMEOUT_MS = 10_000;
/** Answers larger than this are cut off with an error: no receiver of Muster's sends more. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** No answer within the time limit; named as fetch names it, so callers tell it apart. */
class OutboundTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** `init` as fetch takes it, with Muster's own time limit. */
export type OutboundInit = RequestInit & { timeoutMs?: number };

/** What went wrong with an outbound call, in words that quote nothing of the request (for logs and errors). */
export function failureOf(err: unknown): string {
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  if (err instanceof OutboundRefused) return 'refused by the outbound policy';
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'no answer in time';
  return e?.code ?? e?.cause?.code ?? 'the request could not be made';
}

export class Outbound {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;

  constructor(readonly policy: OutboundPolicy) {
    const lookup = this.guardedLookup();
    this.http = new HttpAgent({ lookup });
    this.https = new HttpsAgent({ lookup });
  }

  /** net's lookup, answering only addresses the policy allows (all of a name's, or an error). */
  private guardedLookup(): LookupFunction {
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        try {
          for (const a of addresses) this.policy.check(hostname, a.address);
        } catch (refusal) {
          return callback(refusal as NodeJS.ErrnoException, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };
  }

  /** net's lookup through the policy, for a client that opens its own connections (Slack's Socket Mode WebSocket). */
  connectionLookup(): LookupFunction {
    return this.guardedLookup();
  }

  /** The URL, when its scheme is http or https and its host (when an address) is allowed; throws OutboundRefused otherwise. */
  private checkedUrl(input: string | URL): URL {
    const url = new URL(String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`${url.protocol} URLs are not allowed: only http and https`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An address in the URL is never looked up: it is checked here.
    if (isIP(host)) this.policy.check(host, host);
    return url;
  }

  /** The address Muster connects to for `hostname`, checked (an SMTP server's, say). */
  async resolve(hostname: string): Promise<string> {
    if (isIP(hostname)) {
      this.policy.check(hostname, hostname);
      return hostname;
    }
    return new Promise((resolve, reject) => this.guardedLookup()(hostname, { all: false }, (err, address) => (err ? reject(err) : resolve(address as string))));
  }

  /**
   * Whether a configured destination is allowed now (on save): a URL's scheme and address, or a
   * host's. A name that does not resolve passes: it is checked again on every connection.
   */
  async check(destination: { url: string } | { host: string }): Promise<void> {
    const host = 'url' in destination ? this.checkedUrl(destination.url).hostname.replace(/^\[|\]$/g, '') : destination.host;
    try {
      await this.resolve(host);
    } catch (err) {
      if (err instanceof OutboundRefused) throw err;
    }
  }

  /**
   * The agent to connect to `input` with, after the checks fetch makes (scheme, an address in the
   * URL): for a vendor client that makes its own requests over node:http(s) (node-fetch's `agent`).
   */
  agentFor = (input: string | URL): HttpAgent | HttpsAgent => (this.checkedUrl(input).protocol === 'https:' ? this.https : this.http);

  /** fetch, through the policy. */
  fetch = async (input: string | URL, init: OutboundInit = {}): Promise<Response> => {
    const url = this.checkedUrl(input);
    // Request reads any body fetch takes (a string, URLSearchParams, FormData) into bytes and headers.
    const { timeoutMs = DEFAULT_TIMEOUT_MS, signal, ...rest } = init;
    const req = new Request(url, { ...rest, redirect: 'manual' });
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = Object.fromEntries(req.headers);
    if (body) headers['content-length'] = String(body.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = url.protocol === 'https:' ? this.https : this.http;

    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(url, { method: req.method, headers, agent });
      const fail = (err: Error) => {
        outgoing.destroy(err);
        reject(err);
      };
      const timer = setTimeout(() => fail(new OutboundTimeout(timeoutMs)), timeoutMs);
      const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new OutboundTimeout(timeoutMs));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      outgoing.on('error', (err) => {
        done();
        reject(err);
      });
      outgoing.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) fail(new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('error', (err) => {
          done();
          reject(err);
        });
        res.on('end', () => {
          done();
          try {
            resolve(responseOf(res, Buffer.concat(chunks)));
          } catch (err) {
            reject(err);
          }
        });
      });
      outgoing.end(body);
    });
  };
}

/** The answer as fetch gives one. */
function responseOf(res: IncomingMessage, body: Buffer): Response {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`answered with status ${status}`);
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) for (const x of ([] as string[]).concat(v ?? [])) headers.append(k, x);
  const empty = status === 204 || status === 205 || status === 304;
  return new Response(empty ? null : new Uint8Array(body), { status, statusText: res.statusMessage, headers });
}

const clients = new Map<string, Outbound>();

/** The client of a policy (MUSTER_OUTBOUND_ALLOW's value), made once per value: its agents are shared. */
export function outboundFor(allow: string | undefined): Outbound {
  const key = allow ?? '';
  let client = clients.get(key);
  if (!client) clients.set(key, (client = new Outbound(new OutboundPolicy(key))));
  return client;
}
