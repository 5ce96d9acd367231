import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpPeer, startSmtp } from '../../../test/peers/messages.ts';
import { LOCAL_PEERS } from '../../../test/helpers.ts';
import { outboundFor } from '../../lib/outbound/client.ts';
import type { Configuration, PluginEnv } from '../types.ts';
import { emailPlugin, messageIdOf } from './email.ts';

const account = { username: 'muster', password: 'correct horse battery staple' };
const env = (idempotencyKey: string): PluginEnv => ({
  idempotencyKey,
  uiUrl: 'http://ui.test',
  namePrefix: 'muster',
  log: { info() {}, warn() {} },
  outbound: outboundFor(LOCAL_PEERS),
});
const message = { to: ['ops@example.com', 'sec@example.com'], subject: '[muster-1] Database down', text: 'Incident created.\nStatus: Active' };

let smtp: SmtpPeer;
let plain: SmtpPeer;
beforeAll(async () => {
  smtp = await startSmtp(account);
  plain = await startSmtp(account, { starttls: false });
});
afterAll(async () => {
  await smtp?.close();
  await plain?.close();
});

const config = (peer: SmtpPeer, more: Configuration = {}): Configuration => ({
  host: '127.0.0.1',
  port: peer.port,
  username: account.username,
  password: account.password,
  from: 'Muster <muster@example.org>',
  reject_unauthorized: false,
  ...more,
});

describe('e-mail plugin', () => {
  it('refuses an SMTP server on a loopback address, by address or by name, unless the operator allows it', async () => {
    const strict: PluginEnv = { ...env('job-0'), outbound: outboundFor(undefined) };
    await expect(emailPlugin.send(message, config(smtp), strict)).rejects.toThrow('SMTP server 127.0.0.1: refused by the outbound policy');
    await expect(emailPlugin.send(message, config(smtp, { host: 'localhost' }), strict)).rejects.toThrow(/refused by the outbound policy/);
    expect(smtp.received).toHaveLength(0);
    // An allowed name: the connection goes to the address checked, TLS still verifies the name.
    const named: PluginEnv = { ...env('job-0'), outbound: outboundFor('localhost') };
    await emailPlugin.send(message, config(smtp, { host: 'localhost' }), named);
    expect(smtp.received).toHaveLength(1);
    smtp.received.length = 0;
  });

  it('sends over STARTTLS after logging in, with a Message-ID made from the idempotency key', async () => {
    await emailPlugin.send({ ...message, html: '<p>Incident created.</p>' }, config(smtp), env('job-1'));
    expect(smtp.received).toHaveLength(1);
    const [got] = smtp.received;
    expect(got.secure).toBe(true);
    expect(got.user).toBe('muster');
    expect(got.envelope).toEqual({ from: 'muster@example.org', to: ['ops@example.com', 'sec@example.com'] });
    expect(got.mail.from?.value).toEqual([{ address: 'muster@example.org', name: 'Muster' }]);
    expect(got.mail.subject).toBe('[muster-1] Database down');
    expect(got.mail.text?.trim()).toBe('Incident created.\nStatus: Active');
    expect(got.mail.html).toContain('<p>Incident created.</p>');
    expect(got.mail.messageId).toBe('<job-1@example.org>');
  });

  it('gives a message sent again under the same key the same Message-ID', async () => {
    await emailPlugin.send(message, config(smtp), env('job-2'));
    await emailPlugin.send(message, config(smtp), env('job-2'));
    const ids = smtp.received.slice(-2).map((r) => r.mail.messageId);
    expect(ids).toEqual(['<job-2@example.org>', '<job-2@example.org>']);
    expect(messageIdOf('k', 'bare@example.net')).toBe('<k@example.net>');
  });

  it('fails on a wrong password, without naming it', async () => {
    const before = smtp.refusedLogins;
    const err = await emailPlugin.send(message, config(smtp, { password: 'wrong-password-1234' }), env('job-3')).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toContain('wrong-password-1234');
    expect(smtp.refusedLogins).toBe(before + 1);
  });

  it('refuses a server that does not offer STARTTLS unless told not to require it', async () => {
    await expect(emailPlugin.send(message, config(plain), env('job-4'))).rejects.toThrow();
    expect(plain.received).toHaveLength(0);
    await emailPlugin.send(message, config(plain, { starttls: false }), env('job-5'));
    expect(plain.received).toHaveLength(1);
  });

  it('refuses a server whose certificate cannot be verified unless told to accept it', async () => {
    const before = smtp.received.length;
    await expect(emailPlugin.send(message, config(smtp, { reject_unauthorized: true }), env('job-6'))).rejects.toThrow(/certificate/i);
    expect(smtp.received).toHaveLength(before);
  });

  it('needs a host and a sender address', async () => {
    await expect(emailPlugin.send(message, { from: 'a@example.org' }, env('job-7'))).rejects.toThrow(/host/);
    await expect(emailPlugin.send(message, { host: '127.0.0.1' }, env('job-8'))).rejects.toThrow(/from/);
  });

  it('declares its password secret', () => {
    const props = emailPlugin.configuration!.properties as Record<string, { writeOnly?: boolean }>;
    expect(Object.keys(props).filter((k) => props[k].writeOnly)).toEqual(['password']);
  });
});
