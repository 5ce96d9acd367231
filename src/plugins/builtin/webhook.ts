// Muster's webhook plugin: POSTs an event as JSON to a URL, signed with the instance's shared secret
// so that the receiver can tell it came from Muster and was not replayed long after
// (docs/compatibility.md, "Notifications", has the receiver's recipe). Anything but a 2xx answer is
// a failure: the job retries it with the same Idempotency-Key.
import { createHmac } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from './authored.ts';
import { failureOf } from '../../lib/outbound/client.ts';
import type { WebhookPlugin } from '../types.ts';

const DEFAULT_TIMEOUT_SECONDS = 10;

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`: what X-Muster-Signature carries. */
export const signatureOf = (secret: string, timestamp: string, body: string) =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** The URL without its path, query or credentials: what a log line or an error may show of it. */
const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
};

export const webhookPlugin: WebhookPlugin = {
  slug: 'muster-webhook',
  title: 'Muster Plugin - Webhook',
  type: 'webhook',
  ...authoredByMuster,
  description: 'Delivers notifications as signed JSON POST requests to a URL.',
  configuration: Type.Object(
    {
      secret: Type.String({ minLength: 1, writeOnly: true, description: 'Shared secret the deliveries are signed with (HMAC-SHA256)' }),
      timeout_seconds: Type.Optional(
        // Below the job's run time (messages.ts), so a slow receiver never sees a second delivery beside the first.
        Type.Integer({ minimum: 1, maximum: 90, default: DEFAULT_TIMEOUT_SECONDS, description: 'Seconds to wait for the receiver to answer' }),
      ),
    },
    { additionalProperties: false },
  ),
  async deliver(delivery, config, env) {
    const secret = typeof config.secret === 'string' ? config.secret : '';
    if (!secret) throw new Error('the webhook plugin has no secret configured');
    const timeout = typeof config.timeout_seconds === 'number' ? config.timeout_seconds : DEFAULT_TIMEOUT_SECONDS;
    const body = JSON.stringify({ event: delivery.event, data: delivery.payload, delivered_at: new Date().toISOString() });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const where = originOf(delivery.url);
    let res: Response;
    try {
      res = await env.outbound.fetch(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Muster-Webhook/0.1',
          'X-Muster-Timestamp': timestamp,
          'X-Muster-Signature': signatureOf(secret, timestamp, body),
          'Idempotency-Key': env.idempotencyKey,
        },
        body,
        // No redirect is followed (it would carry the signed body elsewhere): the configured URL answers, or it fails.
        timeoutMs: timeout * 1000,
      });
    } catch (err) {
      // The URL's path may hold a token (many receivers put one there), and error messages may
      // quote the whole URL: only its origin and the error's kind are named.
      throw new Error(`webhook delivery to ${where} failed: ${failureOf(err)}`);
    }
    await res.body?.cancel();
    if (res.status < 200 || res.status > 299) throw new Error(`webhook delivery to ${where} answered ${res.status}`);
    env.log.info(`webhook ${delivery.event} delivered to ${where}`);
  },
};
