import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, Outbound, OutboundPolicy, OutboundRefused, outboundFor } from './client.ts';

/** A local HTTP server answering with `answer`; records the paths it was asked for. */
async function startPeer(answer: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? '');
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    paths,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('the outbound policy', () => {
  const policy = new OutboundPolicy();

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.251',
    '0.0.0.0',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
  ])('refuses %s', (ip) => {
    expect(policy.allowsAddress(ip)).toBe(false);
    expect(() => policy.check('receiver.example', ip)).toThrow(OutboundRefused);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '64:ff9b::101:101'])('allows the public address %s', (ip) => {
    expect(policy.allowsAddress(ip)).toBe(true);
  });

  it('allows what the operator lists: CIDRs, single addresses and host names', () => {
    const allowing = new OutboundPolicy(' 10.20.0.0/16, 127.0.0.1 ,fd00::/8, jira.corp.example ');
    expect(allowing.allowsAddress('10.20.3.4')).toBe(true);
    expect(allowing.allowsAddress('10.21.3.4')).toBe(false);
    expect(allowing.allowsAddress('127.0.0.1')).toBe(true);
    expect(allowing.allowsAddress('127.0.0.2')).toBe(false);
    expect(allowing.allowsAddress('::ffff:127.0.0.1')).toBe(true);
    expect(allowing.allowsAddress('fd00::1')).toBe(true);
    expect(() => allowing.check('JIRA.corp.example.', '10.9.9.9')).not.toThrow();
    expect(() => allowing.check('other.corp.example', '10.9.9.9')).toThrow(OutboundRefused);
  });

  it('names an entry of MUSTER_OUTBOUND_ALLOW it cannot read', () => {
    expect(() => new OutboundPolicy('10.0.0.0/33')).toThrow(/10.0.0.0\/33/);
    expect(() => new OutboundPolicy('http://x.example')).toThrow(/http:\/\/x.example/);
  });
});

describe('the outbound client against a local peer', () => {
  let peer: Awaited<ReturnType<typeof startPeer>>;
  const local = new Outbound(new OutboundPolicy('127.0.0.0/8'));
  const strict = new Outbound(new OutboundPolicy());

  beforeAll(async () => {
    peer = await startPeer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/secret' }).end();
      } else if (req.url === '/silent') {
        // Never answers: the client's time limit ends the call.
      } else {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body })));
      }
    });
  });
  afterAll(() => peer.close());

  it('calls an allowed address and reads its answer', async () => {
    const res = await local.fetch(`http://127.0.0.1:${peer.port}/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'POST', body: '{"a":1}' });
  });

  it('refuses a loopback address in the URL before connecting', async () => {
    const before = peer.paths.length;
    await expect(strict.fetch(`http://127.0.0.1:${peer.port}/x`)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(strict.fetch(`http://[::ffff:127.0.0.1]:${peer.port}/x`)).rejects.toBeInstanceOf(OutboundRefused);
    expect(peer.paths.length).toBe(before);
  });

  it('checks the addresses a name resolves to when it connects', async () => {
    const before = peer.paths.length;
    const err = await strict.fetch(`http://localhost:${peer.port}/x`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundRefused);
    expect(failureOf(err)).toBe('refused by the outbound policy');
    expect(peer.paths.length).toBe(before);
    // A name the operator lists is connected to whatever it resolves to.
    const named = new Outbound(new OutboundPolicy('localhost'));
    expect((await named.fetch(`http://localhost:${peer.port}/x`)).status).toBe(200);
  });

  it('refuses schemes other than http and https', async () => {
    await expect(local.fetch('file:///etc/passwd')).rejects.toThrow(/file: URLs are not allowed/);
    await expect(local.fetch('gopher://127.0.0.1:70/_x')).rejects.toBeInstanceOf(OutboundRefused);
  });

  it('does not follow a redirect', async () => {
    const res = await local.fetch(`http://127.0.0.1:${peer.port}/moved`);
    expect(res.status).toBe(302);
    expect(peer.paths).not.toContain('/secret');
  });

  it('gives up on a peer that does not answer in time', async () => {
    const err = await local.fetch(`http://127.0.0.1:${peer.port}/silent`, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(failureOf(err)).toBe('no answer in time');
  });

  it('resolves a host for clients that connect themselves, refusing what the policy refuses', async () => {
    await expect(strict.resolve('localhost')).rejects.toBeInstanceOf(OutboundRefused);
    await expect(strict.resolve('169.254.169.254')).rejects.toBeInstanceOf(OutboundRefused);
    expect(await local.resolve('127.0.0.1')).toBe('127.0.0.1');
  });

  it('makes one client per policy', () => {
    expect(outboundFor('127.0.0.0/8')).toBe(outboundFor('127.0.0.0/8'));
    expect(outboundFor(undefined)).not.toBe(outboundFor('127.0.0.0/8'));
  });
});
