// Accounts that cannot be taken over: registration is no password oracle and never joins an existing
// account; an Owner never sets a member's password; addresses are confirmed by a mailed link before
// they count for domain policies and participation; a new password or a removal ends old tokens.
// Mail goes through a real local SMTP server.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, nextSecond, register, registerUnconfirmed, type TestApp } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { type SmtpPeer, startSmtp } from '../../../test/peers/messages.ts';

const PASSWORD = 'correct horse battery';
const signUp = (t: TestApp, org: string, body: Record<string, unknown>, remoteAddress = '10.9.0.1') =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/${org}/auth/register`,
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const signIn = (t: TestApp, email: string, password: string, org = 'default') => call(t.app, 'POST', `/${org}/auth/login`, { body: { email, password } });

/** A stranger's own organization with open registration: where the attacks of the review start. */
async function strangersOrganization(t: TestApp, stranger: string) {
  expect((await call(t.app, 'POST', '/organizations', { token: stranger, body: { name: 'Mine' } })).status).toBe(200);
  expect((await call(t.app, 'PUT', '/mine/registration', { token: stranger, body: { policy: 'open' } })).status).toBe(200);
}

describe('without a mail transport', () => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await register(t.app, 'owner@example.com');
    await register(t.app, 'victim@example.com', 'default', PASSWORD);
    stranger = await register(t.app, 'stranger@example.com');
    await strangersOrganization(t, stranger);
  });
  afterAll(() => t.close());

  it('registration is no password oracle and never joins an existing account', async () => {
    // Before: wrong guesses answered 422 "already exists", the right one a token of the victim's.
    const answers = new Set<string>();
    for (const guess of ['a first wrong guess', 'a second wrong guess', PASSWORD]) {
      const res = await signUp(t, 'mine', { email: 'victim@example.com', password: guess }, '10.9.1.1');
      answers.add(`${res.statusCode} ${res.body}`);
    }
    expect([...answers]).toEqual(['200 {"token":null}']);
    const members = (await call(t.app, 'GET', '/mine/users', { token: stranger })).body.items.map((u: { email: string }) => u.email);
    expect(members).toEqual(['stranger@example.com']);
    // The victim still signs in, and is a member of nothing new.
    const victim = await signIn(t, 'victim@example.com', PASSWORD);
    expect(victim.status).toBe(200);
    const orgs = (await call(t.app, 'GET', '/default/auth/me', { token: victim.body.token })).body.organizations;
    expect(orgs.map((o: { organization: { slug: string } }) => o.organization.slug)).toEqual(['default']);
  });

  it("an address of the service accounts' reserved domain is nobody's to register", async () => {
    const res = await signUp(t, 'default', { email: 'ci-bot@default.service-accounts.invalid', password: PASSWORD }, '10.9.4.1');
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['email'], msg: 'This address is reserved for service accounts.' });
  });

  it('registration attempts are limited per client address', async () => {
    const limited = await createTestApp({ loginMaxFailuresPerAddress: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await signUp(limited, 'default', { email: `new${i}@example.com`, password: PASSWORD }, '10.9.2.2')).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      expect((await signUp(limited, 'default', { email: 'other@example.com', password: PASSWORD }, '10.9.2.3')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('an Owner cannot set the password of a member, who may be someone else\u2019s Owner', async () => {
    // The victim accepts the stranger's invitation (as a signed-in person does, not with a password).
    const invited = (await call(t.app, 'POST', '/mine/invitations', { token: stranger, body: { email: 'victim@example.com' } })).body;
    const victim = (await signIn(t, 'victim@example.com', PASSWORD)).body.token;
    const accepted = await call(t.app, 'POST', '/invitations/accept', { token: victim, body: { token: invited.token } });
    expect(accepted).toMatchObject({ status: 200, body: { organization: { slug: 'mine' }, role: 'Member' } });
    const id = (await call(t.app, 'GET', '/default/auth/me', { token: victim })).body.id;
    // Before: 200, and the stranger signed in as the victim everywhere.
    const set = await call(t.app, 'PUT', `/mine/users/${id}`, { token: stranger, body: { id, password: 'taken over now' } });
    expect(set.status).toBe(403);
    expect((await signIn(t, 'victim@example.com', 'taken over now')).status).toBe(422);
    expect((await signIn(t, 'victim@example.com', PASSWORD)).status).toBe(200);
    // The Owner may remove the member instead: their access there ends at once, elsewhere it stays.
    expect((await call(t.app, 'DELETE', `/mine/users/${id}`, { token: stranger })).status).toBe(200);
    expect((await call(t.app, 'GET', '/mine/incidents', { token: victim })).status).toBe(403);
    expect((await call(t.app, 'GET', '/default/incidents', { token: victim })).status).toBe(200);
  });

  it('a chosen password follows NIST SP 800-63B: 8 characters at least, 64 and more taken, no breached one, no composition rule', async () => {
    const refused = async (email: string, password: string, type: string) => {
      const res = await signUp(t, 'default', { email, password }, '10.9.8.1');
      expect(res.statusCode, password).toBe(422);
      expect(res.json().detail).toEqual([expect.objectContaining({ loc: ['password'], type })]);
    };
    await refused('seven@example.com', 'abcdefg', 'value_error.any_str.min_length');
    await refused('common@example.com', 'Password123', 'value_error.password.common');
    await refused('common@example.com', 'qwertyuiop', 'value_error.password.common');
    await refused('long@example.com', 'x'.repeat(257), 'value_error.any_str.max_length');
    // Only lower-case letters and spaces, and a long one: both taken.
    for (const [email, password] of [
      ['plain@example.com', 'plain lower case words'],
      ['long@example.com', 'a passphrase of many words '.repeat(4).slice(0, 100)],
    ]) {
      expect((await signUp(t, 'default', { email, password }, '10.9.8.1')).statusCode, password).toBe(200);
      expect((await signIn(t, email, password)).status).toBe(200);
    }
    // A breached one is refused on a change too, in the field it was given in.
    const token = await register(t.app, 'changes-to-common@example.com', 'default', PASSWORD);
    const res = await call(t.app, 'POST', '/default/auth/password', { token, body: { current_password: PASSWORD, new_password: 'iloveyou' } });
    expect(res).toMatchObject({ status: 422, body: { detail: [{ loc: ['new_password'], type: 'value_error.password.common' }] } });
  });

  it('a person changes their own password with the current one; older tokens stop working', async () => {
    const email = 'changer@example.com';
    const first = await register(t.app, email, 'default', PASSWORD);
    const second = (await signIn(t, email, PASSWORD)).body.token;
    const id = (await call(t.app, 'GET', '/default/auth/me', { token: first })).body.id;
    const without = await call(t.app, 'PUT', `/default/users/${id}`, { token: first, body: { id, password: 'a new passphrase' } });
    expect(without).toMatchObject({ status: 422, body: { detail: [{ loc: ['current_password'] }] } });
    const short = await call(t.app, 'POST', '/default/auth/password', { token: first, body: { current_password: PASSWORD, new_password: 'short' } });
    expect(short).toMatchObject({ status: 422, body: { detail: [{ loc: ['new_password'], msg: 'A password needs at least 8 characters.' }] } });
    // Tokens carry their issue time to the second: the change must come in a later second to refuse them.
    await nextSecond();
    const changed = await call(t.app, 'POST', '/default/auth/password', {
      token: first,
      body: { current_password: PASSWORD, new_password: 'a new passphrase' },
    });
    expect(changed.status).toBe(200);
    for (const old of [first, second]) expect((await call(t.app, 'GET', '/default/auth/me', { token: old })).status).toBe(401);
    expect((await call(t.app, 'GET', '/default/auth/me', { token: changed.body.token })).status).toBe(200);
    expect((await signIn(t, email, 'a new passphrase')).status).toBe(200);
    const audit = (await t.database.db.execute(sql`SELECT action FROM audit_log WHERE target_id = ${String(id)} ORDER BY id`)).rows;
    expect(audit.map((r: any) => r.action)).toContain('user.password_changed');
  });

  it('an unconfirmed address does not read the Restricted incidents its address takes part in', async () => {
    const secret = await call(t.app, 'POST', '/default/incidents', {
      token: owner,
      body: { title: 'Acquisition', description: 'Board only', visibility: 'Restricted' },
    });
    expect(secret.status).toBe(200);
    const added = await call(t.app, 'POST', `/default/incidents/${secret.body.id}/participants`, { token: owner, body: { email: 'cfo@example.com' } });
    expect(added.status).toBe(200);
    // Before: registering as the address read the incident at once.
    const impostor = await registerUnconfirmed(t.app, 'cfo@example.com');
    expect((await call(t.app, 'GET', `/default/incidents/${secret.body.id}`, { token: impostor })).status).toBe(404);
    const list = await call(t.app, 'GET', '/default/incidents', { token: impostor, query: { itemsPerPage: -1 } });
    expect(list.body.items.map((i: { id: number }) => i.id)).not.toContain(secret.body.id);
  });

  it('a domains policy cannot confirm addresses without mail: it asks for an invitation', async () => {
    expect((await call(t.app, 'PUT', '/mine/registration', { token: stranger, body: { policy: 'domains', domains: ['corp.example'] } })).status).toBe(200);
    const res = await signUp(t, 'mine', { email: 'someone@corp.example', password: PASSWORD }, '10.9.3.1');
    expect(res.statusCode).toBe(403);
    expect(res.json().detail[0].msg).toContain('needs a confirmed address');
  });

  it('a reset link, printed for the operator when no mail is configured, sets a new password once and ends old tokens', async () => {
    const email = 'forgetful@example.com';
    const before = await register(t.app, email, 'default', PASSWORD);
    // The API tells nothing about the address, known or not.
    for (const who of [email, 'nobody@example.com']) {
      expect(await call(t.app, 'POST', '/default/auth/password-reset', { body: { email: who } })).toMatchObject({ status: 200, body: null });
    }
    const { startPasswordReset } = await import('./account.ts');
    const started = await startPasswordReset(t.app.muster.db, t.settings, email, { id: 1, slug: 'default' }, { returnLink: true });
    expect(started.link).toMatch(/\/default\/auth\/reset\?token=/);
    const token = new URL(started.link!).searchParams.get('token')!;
    const stored = (await t.database.db.execute(sql`SELECT token_hash FROM email_link WHERE purpose = 'reset'`)).rows;
    expect(JSON.stringify(stored)).not.toContain(token);
    await nextSecond();
    const done = await call(t.app, 'POST', '/default/auth/password-reset/complete', { body: { token, password: 'a fresh passphrase' } });
    expect(done.status).toBe(200);
    expect((await call(t.app, 'GET', '/default/auth/me', { token: before })).status).toBe(401);
    expect((await call(t.app, 'POST', '/default/auth/password-reset/complete', { body: { token, password: 'again and again' } })).status).toBe(400);
    expect((await signIn(t, email, 'a fresh passphrase')).status).toBe(200);
  });
});

describe('with a mail transport', () => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let stranger: string;
  const mailTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));
  const linkIn = (text: string) => new URL(/https?:\/\/\S+\?token=\S+/.exec(text)![0]).searchParams.get('token')!;

  /** Registers in `default` as a person does with mail: the link from their inbox answers their token. */
  async function joinByMail(email: string, password: string) {
    expect((await signUp(t, 'default', { email, password }, '10.8.9.9')).json()).toEqual({ token: null });
    await drainJobs(t.database, t.settings);
    const confirm = mailTo(email).at(-1)!;
    const res = await call(t.app, 'POST', '/default/auth/confirm', { body: { token: linkIn(confirm.mail.text!) } });
    expect(res.status).toBe(200);
    return res.body.token as string;
  }

  beforeAll(async () => {
    smtp = await startSmtp({ username: 'muster', password: 'smtp-secret' }, { starttls: false });
    t = await createTestApp({ smtpUrl: `smtp://muster:smtp-secret@127.0.0.1:${smtp.port}`, mailFrom: 'Muster <muster@example.com>' });
    await register(t.app, 'owner@example.com');
    await joinByMail('victim@example.com', PASSWORD);
    stranger = await joinByMail('stranger@example.com', PASSWORD);
    await strangersOrganization(t, stranger);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('registration answers a new and an existing address alike; each gets its own mail', async () => {
    const known = await signUp(t, 'mine', { email: 'victim@example.com', password: 'a guess at it' }, '10.8.0.1');
    const fresh = await signUp(t, 'mine', { email: 'newcomer@example.com', password: PASSWORD }, '10.8.0.2');
    expect([known.statusCode, known.body]).toEqual([fresh.statusCode, fresh.body]);
    expect(fresh.json()).toEqual({ token: null });
    // Neither is a member of the stranger's organization yet.
    const members = (await call(t.app, 'GET', '/mine/users', { token: stranger })).body.items.map((u: { email: string }) => u.email);
    expect(members).toEqual(['stranger@example.com']);
    await drainJobs(t.database, t.settings);
    const notice = mailTo('victim@example.com').at(-1)!;
    expect(notice.mail.subject).toBe('Someone tried to register your address with Muster');
    const [confirm] = mailTo('newcomer@example.com');
    expect(confirm.mail.subject).toBe('Confirm your e-mail address for Muster');
    // Following the link confirms the address and joins the organization.
    const confirmed = await call(t.app, 'POST', '/mine/auth/confirm', { body: { token: linkIn(confirm.mail.text!) } });
    expect(confirmed.status).toBe(200);
    expect((await call(t.app, 'GET', '/mine/auth/myrole', { token: confirmed.body.token })).body).toBe('Member');
    expect((await call(t.app, 'POST', '/mine/auth/confirm', { body: { token: linkIn(confirm.mail.text!) } })).status).toBe(400);
  });

  it('a domains policy admits an address once its link is followed', async () => {
    expect((await call(t.app, 'PUT', '/mine/registration', { token: stranger, body: { policy: 'domains', domains: ['corp.example'] } })).status).toBe(200);
    expect((await signUp(t, 'mine', { email: 'someone@corp.example', password: PASSWORD }, '10.8.1.1')).json()).toEqual({ token: null });
    expect((await signUp(t, 'mine', { email: 'someone@evil.example', password: PASSWORD }, '10.8.1.1')).statusCode).toBe(403);
    // Signing in before confirming finds no membership there.
    const early = (await signIn(t, 'someone@corp.example', PASSWORD, 'mine')).body.token;
    expect((await call(t.app, 'GET', '/mine/incidents', { token: early })).status).toBe(403);
    await drainJobs(t.database, t.settings);
    const [confirm] = mailTo('someone@corp.example');
    const joined = await call(t.app, 'POST', '/mine/auth/confirm', { body: { token: linkIn(confirm.mail.text!) } });
    expect((await call(t.app, 'GET', '/mine/incidents', { token: joined.body.token })).status).toBe(200);
    await call(t.app, 'PUT', '/mine/registration', { token: stranger, body: { policy: 'open' } });
  });

  it('an invitation naming an address is mailed to it, its link admits once, and the queue holds no token', async () => {
    const owner = (await signIn(t, 'owner@example.com', PASSWORD)).body.token;
    const invite = (body: Record<string, unknown>) => call(t.app, 'POST', '/default/invitations', { token: owner, body });
    const named = await invite({ email: 'Invited@Example.com', role: 'Admin' });
    expect(named.status).toBe(200);
    expect((await invite({ role: 'Member' })).status).toBe(200);
    const queued = (await t.database.db.execute(sql`SELECT data FROM pgboss.job WHERE name = 'invitation-mail'`)).rows;
    expect(queued).toHaveLength(1);
    expect(JSON.stringify(queued)).not.toContain(named.body.token);
    await drainJobs(t.database, t.settings);
    const [mail, ...more] = mailTo('invited@example.com');
    expect(more).toEqual([]);
    expect(mail.mail.subject).toBe('You are invited to default on Muster');
    expect(mail.mail.text).toContain('owner@example.com invited you to join default on Muster as Admin.');
    const link = new URL(/https?:\/\/\S+\?invitation=\S+/.exec(mail.mail.text!)![0]);
    expect(link.pathname).toBe('/default/auth/register');
    // The mailed token is the one the inviter was shown: either admits, once.
    expect(link.searchParams.get('invitation')).toBe(named.body.token);
    const joined = await signUp(
      t,
      'default',
      { email: 'invited@example.com', password: PASSWORD, invitation: link.searchParams.get('invitation') },
      '10.8.5.1',
    );
    expect(joined.statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/default/auth/myrole', { token: joined.json().token })).body).toBe('Admin');
    const again = await signUp(t, 'default', { email: 'invited@example.com', password: PASSWORD, invitation: named.body.token }, '10.8.5.1');
    expect(again.statusCode).toBe(403);
  });

  it('a reset link is mailed to a member, never to an unknown address, and carries no secret in the queue', async () => {
    expect((await call(t.app, 'POST', '/default/auth/password-reset', { body: { email: 'victim@example.com' } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/default/auth/password-reset', { body: { email: 'ghost@example.com' } })).status).toBe(200);
    const queued = (await t.database.db.execute(sql`SELECT data FROM pgboss.job WHERE name = 'account-mail'`)).rows;
    expect(JSON.stringify(queued)).not.toMatch(/token|https?:/);
    await drainJobs(t.database, t.settings);
    expect(mailTo('ghost@example.com')).toEqual([]);
    const reset = mailTo('victim@example.com').find((m) => m.mail.subject === 'Reset your Muster password')!;
    const done = await call(t.app, 'POST', '/default/auth/password-reset/complete', {
      body: { token: linkIn(reset.mail.text!), password: 'victim chose anew' },
    });
    expect(done.status).toBe(200);
    expect((await signIn(t, 'victim@example.com', 'victim chose anew')).status).toBe(200);
  });
});
