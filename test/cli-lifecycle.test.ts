// How `muster server start` begins and ends, as a real process: a taken port fails before the
// database is opened, and SIGTERM drains like a load balancer expects (no connection reset under a
// keep-alive client, every request in flight answered, idle connections closed, exit 0).
import { existsSync, rmSync } from 'node:fs';
import http from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTarget, muster, postgresTarget, SERVER_URL, startServer, stopAllServers, type Target, tempDir } from './cli-helpers.ts';

let cwd: string;
beforeAll(() => {
  cwd = tempDir();
});
afterAll(async () => {
  await stopAllServers();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** One request on `agent`; rejects with the socket's error (ECONNRESET and the like). */
function request(agent: http.Agent, port: number, method: string, path: string, body?: unknown, onSent?: () => void): Promise<Answer> {
  return new Promise((ok, fail) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => ok({ status: res.statusCode!, connection: res.headers.connection, body: text }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    if (onSent) req.on('finish', onSent);
    req.end(payload);
  });
}

describe('muster server start, beginning and end', { timeout: 300_000 }, () => {
  it('on a port already taken fails at once with a clear message, before creating the data directory', async () => {
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    const { port } = taken.address() as AddressInfo;
    const dataDir = join(cwd, 'never-created');
    try {
      const r = await muster(['server', 'start', '--port', String(port)], { cwd, env: { MUSTER_DATA_DIR: dataDir } });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `muster: port ${port} on 127.0.0.1 is already in use (another server is listening there); stop it or choose another with --port or --uds`,
      );
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      taken.close();
    }
  });

  const targets: [string, () => Promise<Target>][] = [['embedded', async () => embeddedTarget({ migrated: true })]];
  if (SERVER_URL) targets.push(['PostgreSQL', () => postgresTarget({ migrated: true })]);

  for (const [name, makeTarget] of targets) {
    it(`SIGTERM under keep-alive traffic (${name}): no connection reset, requests in flight answered, idle connections closed, exit 0`, async () => {
      const target = await makeTarget();
      try {
        const server = await startServer({ cwd, env: target.env });
        const { port } = server;
        const errors: string[] = [];
        const statuses: number[] = [];

        // Keep-alive clients that send one request after another, each on its own connection,
        // until an answer tells them to close it (as a balancer then sends elsewhere).
        let signalled = false;
        let giveUp = false;
        const loops = Array.from({ length: 4 }, async () => {
          const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
          try {
            for (let i = 0; !giveUp; i++) {
              const path = i % 3 === 0 ? '/api/v1/healthcheck/ready' : '/api/v1/healthcheck';
              const a = await request(agent, port, 'GET', path).catch((err: NodeJS.ErrnoException) => {
                errors.push(`${err.code ?? err.message} after ${i} requests (${signalled ? 'after' : 'before'} SIGTERM)`);
                return null;
              });
              if (!a) return;
              statuses.push(a.status);
              if (a.connection === 'close') return;
            }
          } finally {
            agent.destroy();
          }
        });
        // Connections that sit idle with nothing to send: the server must close them and not wait for them.
        const idleAgents = Array.from({ length: 3 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
        for (const agent of idleAgents) expect((await request(agent, port, 'GET', '/api/v1/healthcheck')).status).toBe(200);

        // Requests in flight when the signal arrives: registrations (password hashing makes them slow).
        const emails = Array.from({ length: 6 }, (_, i) => `drain-${i}@example.com`);
        let sent = 0;
        const inFlight: Promise<Answer>[] = [];
        const allSent = new Promise<void>((ok) => {
          for (const email of emails) {
            inFlight.push(
              request(new http.Agent({ keepAlive: true }), port, 'POST', '/api/v1/default/auth/register', { email, password: 'correct horse battery' }, () => {
                if (++sent === emails.length) ok();
              }),
            );
          }
        });
        // The loops are going: as many answers as loops (or an error, which the test reports below).
        while (statuses.length < loops.length && errors.length === 0) await new Promise((r) => setTimeout(r, 10));
        await allSent;
        signalled = true;
        server.child.kill('SIGTERM');

        const registered = await Promise.allSettled(inFlight);
        const ended = setTimeout(() => (giveUp = true), 60_000);
        await Promise.all(loops);
        clearTimeout(ended);
        const end = await server.stop();
        for (const agent of idleAgents) agent.destroy();

        expect(errors).toEqual([]);
        expect(registered.map((r) => (r.status === 'fulfilled' ? r.value.status : String(r.reason)))).toEqual(emails.map(() => 200));
        expect(statuses.length).toBeGreaterThan(4);
        expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
        expect({ code: end.code, signal: end.signal }).toEqual({ code: 0, signal: null });
        // Nothing acknowledged was lost.
        const stored = await target.query<{ email: string }>(`SELECT email FROM app_user WHERE email LIKE 'drain-%' ORDER BY email`);
        expect(stored.map((r) => r.email)).toEqual([...emails].sort());
      } finally {
        await target.cleanup();
      }
    });
  }
});
