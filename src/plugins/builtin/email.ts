// Muster's e-mail plugin: sends messages over SMTP (nodemailer), STARTTLS required by default, to
// an address the outbound policy allows (resolved and checked, then connected to).
// Each message's Message-ID is made from the job's idempotency key, so a message sent again after a
// retry (the server took it but the answer was lost) is recognisable as the same one.
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import { Type } from '@sinclair/typebox';
import { text } from './configuration-text.ts';
import { authoredByMuster } from './authored.ts';
import { failureOf } from '../../lib/outbound/client.ts';
import type { Configuration, EmailPlugin } from '../types.ts';

/** Where and how the password travels: changing any of these needs the password again. */
const BOUND = { 'x-secret-bound': ['password'] };

/** Seconds to wait for the server to connect, greet or answer before the send fails (and is retried). */
const TIMEOUT_MS = 30_000;

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  starttls: boolean;
  username?: string;
  password?: string;
  from: string;
  rejectUnauthorized: boolean;
}

/** The configuration with its defaults; throws naming a required field that is missing. */
export function smtpSettings(config: Configuration): SmtpSettings {
  const flag = (k: string, otherwise: boolean) => (typeof config[k] === 'boolean' ? (config[k] as boolean) : otherwise);
  const host = text(config, 'host');
  const from = text(config, 'from');
  if (!host) throw new Error('the e-mail plugin has no host configured');
  if (!from) throw new Error('the e-mail plugin has no from address configured');
  return {
    host,
    port: typeof config.port === 'number' ? config.port : 587,
    secure: flag('secure', false),
    starttls: flag('starttls', true),
    username: text(config, 'username'),
    password: text(config, 'password'),
    from,
    rejectUnauthorized: flag('reject_unauthorized', true),
  };
}

/** `<key@domain of the sender>`: the same for every attempt of one job. */
export const messageIdOf = (idempotencyKey: string, from: string) => {
  const domain = /@([^\s>@]+)>?\s*$/.exec(from)?.[1] ?? 'muster.invalid';
  return `<${idempotencyKey}@${domain}>`;
};

export const emailPlugin: EmailPlugin = {
  slug: 'muster-email',
  title: 'Muster Plugin - Email',
  type: 'email',
  ...authoredByMuster,
  description: 'Sends notifications and reminders by e-mail through an SMTP server.',
  configuration: Type.Object(
    {
      host: Type.String({ minLength: 1, ...BOUND, description: 'SMTP server host name' }),
      port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 587, ...BOUND, description: 'SMTP server port' })),
      secure: Type.Optional(Type.Boolean({ default: false, ...BOUND, description: 'Connect with TLS from the start (implicit TLS, usually port 465)' })),
      starttls: Type.Optional(Type.Boolean({ default: true, ...BOUND, description: 'Require the connection to be upgraded with STARTTLS' })),
      username: Type.Optional(Type.String({ description: 'User name to authenticate with' })),
      password: Type.Optional(Type.String({ writeOnly: true, description: 'Password to authenticate with' })),
      from: Type.String({ format: 'email', description: 'Sender address: "muster@example.com", or with a name, "Muster <muster@example.com>"' }),
      reject_unauthorized: Type.Optional(Type.Boolean({ default: true, ...BOUND, description: 'Refuse a server whose TLS certificate cannot be verified' })),
    },
    { additionalProperties: false },
  ),
  async send(message, config, env) {
    const s = smtpSettings(config);
    let address: string;
    try {
      address = await env.outbound.resolve(s.host);
    } catch (err) {
      throw new Error(`SMTP server ${s.host}: ${failureOf(err)}`);
    }
    // The checked address is where the connection goes; the host name stays what TLS verifies.
    const transport = nodemailer.createTransport({
      host: address,
      port: s.port,
      secure: s.secure,
      requireTLS: !s.secure && s.starttls,
      auth: s.username ? { user: s.username, pass: s.password ?? '' } : undefined,
      tls: { rejectUnauthorized: s.rejectUnauthorized, ...(isIP(s.host) ? {} : { servername: s.host }) },
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
    try {
      await transport.sendMail({
        from: s.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: messageIdOf(env.idempotencyKey, s.from),
      });
    } finally {
      transport.close();
    }
  },
};
