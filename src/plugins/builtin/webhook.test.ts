import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, verifySignature, type WebhookPeer } from '../../../test/peers/messages.ts';
import { LOCAL_PEERS } from '../../../test/helpers.ts';
import { outboundFor } from '../../lib/outbound/client.ts';
import type { PluginEnv } from '../types.ts';
import { signatureOf, webhookPlugin } from './webhook.ts';

const secret = 'shared-secret-of-the-receiver';
const env = (idempotencyKey: string): PluginEnv => ({
  idempotencyKey,
  uiUrl: 'http://ui.test',
  namePrefix: 'muster',
  log: { info() {}, warn() {} },
  outbound: outboundFor(LOCAL_PEERS),
});

let peers: WebhookPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.map((p) => p.close()));
  peers = [];
});
const receiver = async (answer?: (n: number) => number) => {
  const p = await startReceiver(secret, answer);
  peers.push(p);
  return p;
};

describe('webhook plugin', () => {
  it('POSTs the event as signed JSON with the idempotency key', async () => {
    const r = await receiver();
    await webhookPlugin.deliver({ url: r.url, event: 'incident.created', payload: { id: 7, title: 'Down' } }, { secret }, env('job-1'));
    expect(r.delivered).toHaveLength(1);
    const [d] = r.delivered;
    expect(d.verified).toBe(true);
    expect(d.path).toBe('/hooks/muster');
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.headers['idempotency-key']).toBe('job-1');
    expect(d.json).toEqual({ event: 'incident.created', data: { id: 7, title: 'Down' }, delivered_at: expect.any(String) });
    expect(d.headers['x-muster-signature']).toBe(signatureOf(secret, String(d.headers['x-muster-timestamp']), d.body));
  });

  it('signs so that another secret, a changed body or an old timestamp does not verify', async () => {
    const r = await receiver();
    await webhookPlugin.deliver({ url: r.url, event: 'e', payload: null }, { secret }, env('job-2'));
    const [d] = r.delivered;
    expect(verifySignature('another-secret', d.headers, d.body)).toBe(false);
    expect(verifySignature(secret, d.headers, d.body.replace('"e"', '"f"'))).toBe(false);
    const old = String(Number(d.headers['x-muster-timestamp']) - 3600);
    expect(verifySignature(secret, { ...d.headers, 'x-muster-timestamp': old, 'x-muster-signature': signatureOf(secret, old, d.body) }, d.body)).toBe(false);
  });

  it('fails on an answer that is not 2xx, naming the origin only', async () => {
    const r = await receiver(() => 500);
    const err = await webhookPlugin.deliver({ url: `${r.url}?token=abc123`, event: 'e', payload: {} }, { secret }, env('job-3')).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/answered 500$/);
    expect((err as Error).message).not.toContain('abc123');
    expect(r.requests).toHaveLength(1);
    expect(r.delivered).toHaveLength(0);
  });

  it('does not follow a redirect', async () => {
    const target = await receiver();
    const redirecting = createServer((_req, res) => res.writeHead(307, { location: target.url }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`;
      await expect(webhookPlugin.deliver({ url, event: 'e', payload: {} }, { secret }, env('job-4'))).rejects.toThrow(/answered 307/);
      expect(target.requests).toHaveLength(0);
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });

  it('fails when nothing listens, and without a secret', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    peers = [];
    await expect(webhookPlugin.deliver({ url, event: 'e', payload: {} }, { secret }, env('job-5'))).rejects.toThrow(
      /webhook delivery to http:\/\/127\.0\.0\.1:\d+ failed/,
    );
    await expect(webhookPlugin.deliver({ url, event: 'e', payload: {} }, {}, env('job-6'))).rejects.toThrow(/no secret/);
  });

  it('refuses a receiver on a loopback or private address unless the operator allows it', async () => {
    const r = await receiver();
    const strict: PluginEnv = { ...env('job-7'), outbound: outboundFor(undefined) };
    const port = new URL(r.url).port;
    for (const url of [r.url, `http://localhost:${port}/hooks/muster`, 'http://169.254.169.254/latest/meta-data/']) {
      await expect(webhookPlugin.deliver({ url, event: 'e', payload: {} }, { secret }, strict)).rejects.toThrow(/failed: refused by the outbound policy$/);
    }
    expect(r.requests).toHaveLength(0);
  });
});
