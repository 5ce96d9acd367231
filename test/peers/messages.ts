// Real local peers of the message plugins: an SMTP server (smtp-server, STARTTLS with its built-in
// self-signed certificate, AUTH PLAIN/LOGIN against one account) that parses what it receives, and
// an HTTP receiver of webhooks that checks their signature as the docs tell receivers to.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** Whether the session was upgraded to TLS before the message. */
  secure: boolean;
  user: string | undefined;
  mail: ParsedMail;
}

export interface SmtpPeer {
  port: number;
  received: ReceivedMail[];
  /** How many AUTH attempts were refused. */
  refusedLogins: number;
  close(): Promise<void>;
}

export async function startSmtp(account: { username: string; password: string }, opts: { starttls?: boolean } = {}): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const peer = { received, refusedLogins: 0 } as SmtpPeer;
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: opts.starttls === false ? ['STARTTLS'] : [],
    allowInsecureAuth: opts.starttls === false,
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === account.username && auth.password === account.password) return done(null, { user: auth.username });
      peer.refusedLogins++;
      return done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            secure: session.secure,
            user: session.user as string | undefined,
            mail,
          });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.port = (server.server.address() as AddressInfo).port;
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return peer;
}

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: { event: string; data: any; delivered_at: string };
  /** Whether the signature and a recent timestamp checked out with the shared secret. */
  verified: boolean;
  path: string;
}

export interface WebhookPeer {
  url: string;
  /** Every request received, answered with an error or not. */
  requests: Delivery[];
  /** The requests answered 2xx. */
  delivered: Delivery[];
  close(): Promise<void>;
}

/** The receiver's side of the recipe in docs/compatibility.md. */
export function verifySignature(secret: string, headers: IncomingHttpHeaders, body: string, toleranceSeconds = 300): boolean {
  const timestamp = String(headers['x-muster-timestamp'] ?? '');
  const signature = String(headers['x-muster-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * An HTTP receiver of webhooks signed with `secret`. `answer` gives each request's status by its
 * position (default 200 to all).
 */
export async function startReceiver(secret: string, answer: (n: number) => number = () => 200): Promise<WebhookPeer> {
  const requests: Delivery[] = [];
  const delivered: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const d: Delivery = { headers: req.headers, body, json: JSON.parse(body), verified: verifySignature(secret, req.headers, body), path: req.url ?? '' };
      const status = d.verified ? answer(requests.length) : 401;
      requests.push(d);
      if (status >= 200 && status < 300) delivered.push(d);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/muster`,
    requests,
    delivered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
