// The case commands and the buttons on Muster's messages, through signed requests against the
// local Slack: create, update and escalate a case by command; edit, escalate, resolve and join a
// case, and update an incident, by button.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/helpers.ts';
import { drainJobs } from '../../test/jobs.ts';
import { answersAt, caseWithChannel, click, command, incidentWithChannel, openedView, options, submit, useSlackWorld } from '../../test/worlds/slack.ts';

const w = useSlackWorld();
const getCase = async (id: number) => (await call(w.t.app, 'GET', `/default/cases/${id}`, { token: w.owner })).body;
const drain = () => drainJobs(w.t.database, w.t.settings);
const shown = (res: { body: any }) => res.body.view.blocks[0].text.text as string;

let kase: { id: number; name: string; channel: string };
beforeAll(async () => {
  kase = await caseWithChannel(w);
  await call(w.t.app, 'POST', '/default/case_types', { token: w.owner, body: { name: 'Phishing', project: { name: 'default' } } });
});

describe('create case', () => {
  it('opens its modal from any channel; the submission creates the case with the caller as reporter', async () => {
    const { res, triggerId } = await command(w, 'create-case', w.ids.member, 'C-general', 'A mail asking for passwords');
    expect(res.body).toEqual({ response_type: 'ephemeral', text: 'Opening a dialog to create a case...' });
    const types = await options(w, triggerId, w.ids.member, 'case_type', 'phish');
    expect(types.body.options.map((o: any) => o.text.text)).toEqual(['Phishing']);
    const done = await submit(w, triggerId, w.ids.member, { title: 'Password phishing', case_type: { option: types.body.options[0].value } });
    expect(shown(done)).toMatch(/^Case <https:\/\/muster\.example\.com\/default\/cases\/.+\|.+> created: Password phishing\.$/);
    const list = await call(w.t.app, 'GET', '/default/cases', { token: w.owner, query: { itemsPerPage: -1 } });
    const created = list.body.items.find((c: any) => c.title === 'Password phishing');
    expect(created).toMatchObject({ description: 'A mail asking for passwords', case_type: { name: 'Phishing' } });
    const reporter = (await getCase(created.id)).participants.find((p: any) => p.participant_roles.some((r: any) => r.role === 'Reporter'));
    expect(reporter.individual.email).toBe('member@example.com');
  });
});

describe('update case', () => {
  it('is refused outside a case’s channel', async () => {
    const { res } = await command(w, 'update-case', w.ids.owner, 'C-general');
    expect(res.body.text).toContain("`/dispatch-update-case` can only be run in a case's own channel");
  });

  it('opens with the case as it is; the submission updates it', async () => {
    const { res, triggerId } = await command(w, 'update-case', w.ids.owner, kase.channel);
    expect(res.body.text).toBe('Opening a dialog to update the case...');
    const { view } = openedView(w, triggerId);
    expect(view.blocks.find((b: any) => b.block_id === 'title').element.initial_value).toBe('Phishing report');
    const done = await submit(w, triggerId, w.ids.owner, { title: 'Phishing report: payroll', status: { option: 'Triage' } });
    expect(shown(done)).toBe('Case updated successfully.');
    expect(await getCase(kase.id)).toMatchObject({ title: 'Phishing report: payroll', status: 'Triage', triage_at: expect.any(String) });
  });
});

describe('case buttons', () => {
  it('Edit opens the edit modal for the case the button names', async () => {
    const other = await caseWithChannel(w, { title: 'Malware alert' });
    const { res, triggerId } = await click(w, 'case-edit', String(other.id), w.ids.owner, 'C-cases');
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
    expect(openedView(w, triggerId).view).toMatchObject({ callback_id: 'update-case', title: { text: 'Edit Case' } });
    await submit(w, triggerId, w.ids.owner, { description: 'EDR flagged a binary.' });
    expect((await getCase(other.id)).description).toBe('EDR flagged a binary.');
  });

  it('Join makes the caller a participant and tells them so', async () => {
    const { res, responseUrl } = await click(w, 'case-join', String(kase.id), w.ids.member, 'C-cases');
    expect(res.status).toBe(200);
    await drain();
    expect(answersAt(w, responseUrl)).toEqual([expect.objectContaining({ response_type: 'ephemeral', text: expect.stringContaining('You have joined case') })]);
    const people = (await getCase(kase.id)).participants.map((p: any) => p.individual.email);
    expect(people).toContain('member@example.com');
  });

  it('Join of a Restricted case the caller may not see is refused', async () => {
    const secret = await caseWithChannel(w, { title: 'Insider', visibility: 'Restricted' });
    const { responseUrl } = await click(w, 'case-join', String(secret.id), w.ids.member, 'C-cases');
    await drain();
    expect(answersAt(w, responseUrl)).toEqual([expect.objectContaining({ text: 'You are not allowed to see this case.' })]);
    const people = (await getCase(secret.id)).participants.map((p: any) => p.individual.email);
    expect(people).not.toContain('member@example.com');
  });

  it('Resolve closes the case with the reason chosen', async () => {
    const other = await caseWithChannel(w, { title: 'False alarm' });
    const { triggerId } = await click(w, 'case-resolve', String(other.id), w.ids.owner, 'C-cases');
    const missing = await submit(w, triggerId, w.ids.owner, {});
    expect(missing.body).toEqual({ response_action: 'errors', errors: { resolution_reason: 'Choose why the case is resolved.' } });
    const done = await submit(w, triggerId, w.ids.owner, { resolution_reason: { option: 'False Positive' }, resolution: 'A test mail.' });
    expect(shown(done)).toContain('resolved');
    expect(await getCase(other.id)).toMatchObject({ status: 'Closed', resolution_reason: 'False Positive', resolution: 'A test mail.' });
  });
});

describe('escalate case', () => {
  it('by command in the case’s channel, and by button: the case becomes an incident', async () => {
    const { res, triggerId } = await command(w, 'escalate-case', w.ids.owner, kase.channel);
    expect(res.body.text).toBe('Opening a dialog to escalate the case...');
    const done = await submit(w, triggerId, w.ids.owner);
    expect(shown(done)).toContain('escalated to incident');
    const after = await getCase(kase.id);
    expect(after.status).toBe('Escalated');
    expect(after.incidents).toHaveLength(1);

    const other = await caseWithChannel(w, { title: 'Ransomware note' });
    const button = await click(w, 'case-escalate', String(other.id), w.ids.owner, 'C-cases');
    await submit(w, button.triggerId, w.ids.owner);
    expect((await getCase(other.id)).status).toBe('Escalated');
    await drain();
  });
});

describe('the incident summary’s Update button', () => {
  it('opens the update modal for the commander, and refuses others ephemerally', async () => {
    const inc = await incidentWithChannel(w);
    const ok = await click(w, 'incident-update', String(inc.id), w.ids.owner, inc.channel);
    expect(openedView(w, ok.triggerId).view).toMatchObject({ callback_id: 'update-incident' });
    const refused = await click(w, 'incident-update', String(inc.id), w.ids.member, inc.channel);
    expect(refused.res.status).toBe(200);
    await drain();
    expect(answersAt(w, refused.responseUrl)).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', text: expect.stringContaining('This is a sensitive command') }),
    ]);
  });
});
