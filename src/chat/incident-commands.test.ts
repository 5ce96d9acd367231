// The incident commands through signed requests, against the local Slack: reporting an incident
// through its modal end to end, the lists answered through the response URL, the modals of the
// commands that change an incident and what their submissions do, and who may run what where.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/helpers.ts';
import { drainJobs } from '../../test/jobs.ts';
import { answersAt, command, incidentWithChannel, jobsNamed, openedView, options, submit, useSlackWorld } from '../../test/worlds/slack.ts';
import { incident } from '../domains/lifecycle/table.ts';
import { ONCALL_PAGE, ONCALL_RESOLVE } from '../domains/effects/oncall.ts';

const w = useSlackWorld();

const get = async (id: number) => (await call(w.t.app, 'GET', `/default/incidents/${id}`, { token: w.owner })).body;
const rolesOf = (inc: any, email: string) =>
  inc.participants
    .find((p: any) => p.individual.email === email)
    ?.participant_roles.filter((r: any) => !r.renounced_at)
    .map((r: any) => r.role)
    .sort();
const drain = () => drainJobs(w.t.database, w.t.settings);
/** Every text of a message's blocks, joined: what a reader sees. */
const textOf = (message: any) => JSON.stringify(message?.blocks ?? message?.text ?? '');

let inc: { id: number; name: string; channel: string };
beforeAll(async () => {
  // The owner reports it: they are its reporter and its commander.
  inc = await incidentWithChannel(w);
  await call(w.t.app, 'POST', '/default/incident_types', { token: w.owner, body: { name: 'Security', project: { name: 'default' } } });
});

describe('report incident', () => {
  it('opens the modal at once, offers the project’s types, and its submission creates the incident', async () => {
    const { res, triggerId } = await command(w, 'report-incident', w.ids.member, 'C-general', 'The login page is down');
    expect(res).toMatchObject({ status: 200, body: { response_type: 'ephemeral', text: 'Opening a dialog to report an incident...' } });
    const { view } = openedView(w, triggerId);
    expect(view).toMatchObject({ type: 'modal', callback_id: 'report-incident', title: { text: 'Report Incident' }, submit: { text: 'Report' } });
    // The description starts from what was typed after the command.
    expect(view.blocks.find((b: any) => b.block_id === 'description').element.initial_value).toBe('The login page is down');

    const types = await options(w, triggerId, w.ids.member, 'incident_type');
    expect(types.status).toBe(200);
    expect(types.body.options.map((o: any) => o.text.text).sort()).toEqual(['Default', 'Security']);
    const security = types.body.options.find((o: any) => o.text.text === 'Security');
    expect(security).toEqual({ text: { type: 'plain_text', text: 'Security' }, value: expect.stringMatching(/^\d+$/) });
    const typed = await options(w, triggerId, w.ids.member, 'incident_priority', 'hig');
    expect(typed.body.options.map((o: any) => o.text.text)).toEqual(['High']);

    const done = await submit(w, triggerId, w.ids.member, {
      title: 'Login page down',
      description: 'Nobody can log in.',
      incident_type: { option: security.value },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ response_action: 'update', view: { type: 'modal', title: { text: 'Report Incident' } } });
    expect(done.body.view.blocks[0].text.text).toContain('This is a confirmation that you have reported an incident');

    const list = await call(w.t.app, 'GET', '/default/incidents', { token: w.owner, query: { itemsPerPage: -1, expand: true } });
    const created = list.body.items.find((i: any) => i.title === 'Login page down');
    expect(created).toMatchObject({
      description: 'Nobody can log in.',
      incident_type: { name: 'Security' },
      reporter: { individual: { email: 'member@example.com' } },
    });
    expect(done.body.view.blocks[0].text.text).toContain(created.name);
    await drain();
  });

  it('shows a service’s refusal on the input it concerns', async () => {
    const { triggerId } = await command(w, 'report-incident', w.ids.member, 'C-general');
    const res = await submit(w, triggerId, w.ids.member, { title: '   ', description: 'x' });
    expect(res.body).toEqual({ response_action: 'errors', errors: { title: expect.any(String) } });
  });

  it('is refused to a Slack user Muster does not know, with an explanation and nothing else', async () => {
    const views = w.slack.callsOf('views.open').length;
    const { res } = await command(w, 'report-incident', w.ids.stranger, 'C-general');
    expect(res.body).toEqual({ response_type: 'ephemeral', text: expect.stringContaining('Muster does not know you') });
    expect(res.body.text).toContain('stranger@example.com');
    expect(w.slack.callsOf('views.open').length).toBe(views);
    // A list run later says the same through the response URL.
    const list = await command(w, 'list-incidents', w.ids.stranger, 'C-general');
    await drain();
    expect(answersAt(w, list.responseUrl)).toEqual([expect.objectContaining({ text: expect.stringContaining('Muster does not know you') })]);
  });

  it('tells the person to try again when Slack rate limits the modal (its trigger cannot wait for a retry)', async () => {
    w.slack.fail('views.open', { ratelimited: 7 });
    const { res } = await command(w, 'report-incident', w.ids.member, 'C-general');
    expect(res.body.text).toBe('Slack asked Muster to slow down. Please try again in 7 seconds.');
  });
});

describe('list incidents', () => {
  it('lists Active and Stable incidents and those closed in the last 24 hours, as the caller may see them', async () => {
    const old = await call(w.t.app, 'POST', '/default/incidents', { token: w.owner, body: { title: 'Long closed', description: 'x', status: 'Closed' } });
    await w.t.database.db
      .update(incident)
      .set({ closed_at: new Date(Date.now() - 3 * 24 * 3600 * 1000) })
      .where(eq(incident.id, old.body.id));
    const recent = await call(w.t.app, 'POST', '/default/incidents', { token: w.owner, body: { title: 'Just closed', description: 'x', status: 'Closed' } });
    const hidden = await call(w.t.app, 'POST', '/default/incidents', { token: w.owner, body: { title: 'Secret', description: 'x', visibility: 'Restricted' } });
    const { res, responseUrl } = await command(w, 'list-incidents', w.ids.member, 'C-general');
    expect(res.body).toEqual({ response_type: 'ephemeral', text: 'Fetching the list of incidents...' });
    await drain();
    const [answer] = answersAt(w, responseUrl);
    expect(answer).toMatchObject({ response_type: 'ephemeral', replace_original: false, text: 'List of Incidents' });
    const text = textOf(answer);
    expect(text).toContain(inc.name);
    expect(text).toContain(recent.body.name);
    expect(text).not.toContain(old.body.name);
    expect(text).not.toContain(hidden.body.name);
    expect(text).toContain('https://muster.example.com/default/incidents/');
  });
});

describe('incident commands outside an incident’s channel', () => {
  it('are refused: at once for a modal, through the response URL for a list', async () => {
    const modal = await command(w, 'update-incident', w.ids.owner, 'C-general');
    expect(modal.res.body.text).toBe(
      'I see you tried to run `/dispatch-update-incident` in an non-incident conversation. Incident-specifc commands can only be run in incident conversations.',
    );
    const list = await command(w, 'list-participants', w.ids.owner, 'C-general');
    expect(list.res.body.text).toBe('Fetching the list of incident participants...');
    await drain();
    expect(answersAt(w, list.responseUrl)).toEqual([expect.objectContaining({ text: expect.stringContaining('non-incident conversation') })]);
  });
});

describe('sensitive commands', () => {
  it('need the Incident Commander’s or the Scribe’s role: others are refused and nothing opens', async () => {
    const views = w.slack.callsOf('views.open').length;
    for (const name of ['update-incident', 'assign-role', 'add-timeline-event', 'report-tactical', 'report-executive', 'create-task']) {
      const { res } = await command(w, name, w.ids.member, inc.channel);
      expect(res.body.text, name).toBe(
        `I see you tried to run \`/dispatch-${name}\`. This is a sensitive command and cannot be run with the incident role you are currently assigned.`,
      );
    }
    expect(w.slack.callsOf('views.open').length).toBe(views);
  });
});

describe('restricted incidents', () => {
  it('are not acted on for people who may not see them', async () => {
    const secret = await incidentWithChannel(w, { title: 'Secret', visibility: 'Restricted' });
    const { responseUrl } = await command(w, 'list-participants', w.ids.member, secret.channel);
    const modal = await command(w, 'update-participant', w.ids.member, secret.channel);
    expect(modal.res.body.text).toBe('You are not allowed to see this incident.');
    await drain();
    expect(answersAt(w, responseUrl)).toEqual([expect.objectContaining({ text: 'You are not allowed to see this incident.' })]);
  });
});

describe('assign role', () => {
  it('gives the chosen Slack user a role: the Scribe role, then the commander’s', async () => {
    const { res, triggerId } = await command(w, 'assign-role', w.ids.owner, inc.channel);
    expect(res.body.text).toBe('Opening a dialog to assign a role to a participant...');
    const roles = openedView(w, triggerId)
      .view.blocks.find((b: any) => b.block_id === 'role')
      .element.options.map((o: any) => o.value);
    expect(roles).not.toContain('Participant');
    expect(roles).toContain('Scribe');
    const done = await submit(w, triggerId, w.ids.owner, { participant: { user: w.ids.member }, role: { option: 'Scribe' } });
    expect(done.body.view.blocks[0].text.text).toBe('Role assigned successfully.');
    expect(rolesOf(await get(inc.id), 'member@example.com')).toEqual(['Scribe']);

    const again = await command(w, 'assign-role', w.ids.owner, inc.channel);
    await submit(w, again.triggerId, w.ids.owner, { participant: { user: w.ids.admin }, role: { option: 'Incident Commander' } });
    const after = await get(inc.id);
    expect(after.commander.individual.email).toBe('admin@example.com');
    expect(rolesOf(after, 'owner@example.com')).toEqual(['Reporter']);
  });

  it('refuses a person whose Slack profile shows no e-mail address on the input', async () => {
    const { triggerId } = await command(w, 'assign-role', w.ids.admin, inc.channel);
    const res = await submit(w, triggerId, w.ids.admin, { participant: { user: 'U-nobody' }, role: { option: 'Liaison' } });
    expect(res.body).toEqual({ response_action: 'errors', errors: { participant: expect.stringContaining('no e-mail address') } });
  });
});

describe('update incident', () => {
  it('opens with the incident as it is; the submission updates it through the update service', async () => {
    // The member is the Scribe now (above) but a Member of the organization: the update service
    // still asks for IncidentEdit, as through the API.
    const refused = await command(w, 'update-incident', w.ids.member, inc.channel);
    const denied = await submit(w, refused.triggerId, w.ids.member, { title: 'Renamed' });
    expect(denied.body.view.blocks[0].text.text).toBe("You don't have permission to do this. Please, contact your Muster admin.");

    const { triggerId } = await command(w, 'update-incident', w.ids.admin, inc.channel);
    const { view } = openedView(w, triggerId);
    expect(view.blocks.find((b: any) => b.block_id === 'title').element.initial_value).toBe('Database down');
    expect(view.blocks.find((b: any) => b.block_id === 'status').element.initial_option.value).toBe('Active');
    const priorities = await options(w, triggerId, w.ids.admin, 'incident_priority');
    const low = priorities.body.options.find((o: any) => o.text.text === 'Low');
    const done = await submit(w, triggerId, w.ids.admin, {
      title: 'Database down in eu-west',
      status: { option: 'Stable' },
      incident_priority: { option: low.value },
    });
    expect(done.body.view.blocks[0].text.text).toBe('Incident updated successfully.');
    const after = await get(inc.id);
    expect(after).toMatchObject({ title: 'Database down in eu-west', status: 'Stable', incident_priority: { name: 'Low' }, stable_at: expect.any(String) });
    expect(after.description).toBe('It is down.');
  });

  it('puts a service’s 422 on the input it names', async () => {
    const { triggerId } = await command(w, 'update-incident', w.ids.admin, inc.channel);
    const res = await submit(w, triggerId, w.ids.admin, { incident_priority: { option: '999999' } });
    expect(res.body).toEqual({ response_action: 'errors', errors: { incident_priority: expect.any(String) } });
  });
});

describe('update participant', () => {
  it('records why a participant takes part', async () => {
    const { res, triggerId } = await command(w, 'update-participant', w.ids.admin, inc.channel);
    expect(res.body.text).toBe('Opening a dialog to update participant information...');
    const people = openedView(w, triggerId).view.blocks.find((b: any) => b.block_id === 'participant').element.options;
    const member = people.find((o: any) => o.text.text.includes('member@example.com'));
    const done = await submit(w, triggerId, w.ids.admin, { participant: { option: member.value }, added_reason: 'Knows the database' });
    expect(done.body.view.blocks[0].text.text).toBe('Participant updated successfully.');
    const p = (await get(inc.id)).participants.find((x: any) => x.individual.email === 'member@example.com');
    expect(p.added_reason).toBe('Knows the database');
  });
});

describe('add timeline event', () => {
  it('adds what the person describes at the time they give, in their name', async () => {
    const at = new Date('2024-05-01T10:30:00Z');
    const { triggerId } = await command(w, 'add-timeline-event', w.ids.admin, inc.channel, 'Failover started');
    const done = await submit(w, triggerId, w.ids.admin, { started_at: { at } });
    expect(done.body.view.blocks[0].text.text).toBe('Timeline event added successfully.');
    const event = (await get(inc.id)).events.find((e: any) => e.description === 'Failover started');
    expect(event).toMatchObject({ source: 'Slack', owner: 'Ada Admin', type: 'Custom event' });
    expect(new Date(event.started_at).getTime()).toBe(at.getTime());
  });
});

describe('tactical and executive reports', () => {
  it('create reports as the API does, each starting from the last one', async () => {
    const tactical = await command(w, 'report-tactical', w.ids.admin, inc.channel);
    expect(tactical.res.body.text).toBe('Opening a dialog to write a tactical report...');
    await submit(w, tactical.triggerId, w.ids.admin, { conditions: 'Replica lagging', actions: 'Failing over', needs: 'A DBA' });
    const next = await command(w, 'report-tactical', w.ids.admin, inc.channel);
    const blocks = openedView(w, next.triggerId).view.blocks;
    expect(blocks.find((b: any) => b.block_id === 'conditions').element.initial_value).toBe('Replica lagging');

    const exec = await command(w, 'report-executive', w.ids.admin, inc.channel);
    const done = await submit(w, exec.triggerId, w.ids.admin, { current_status: 'Degraded', overview: 'Reads are slow', next_steps: 'Fail over' });
    expect(done.body.view.blocks[0].text.text).toBe('Executive report successfully created.');
    const after = await get(inc.id);
    expect(after.last_tactical_report.details).toEqual({ conditions: 'Replica lagging', actions: 'Failing over', needs: 'A DBA' });
    expect(after.last_executive_report.details).toEqual({ current_status: 'Degraded', overview: 'Reads are slow', next_steps: 'Fail over' });
  });
});

describe('engage on-call', () => {
  it('says so when the project has no on-call service, else engages and pages the one chosen', async () => {
    const none = await command(w, 'engage-oncall', w.ids.member, inc.channel);
    expect(none.res.body.text).toContain('No oncall services have been defined.');
    const svc = await call(w.t.app, 'POST', '/default/services', {
      token: w.owner,
      body: { name: 'Database on-call', external_id: 'db-oncall', type: 'muster-oncall-http', project: { name: 'default' } },
    });
    const before = { resolve: await jobsNamed(w, ONCALL_RESOLVE), page: await jobsNamed(w, ONCALL_PAGE) };
    const { res, triggerId } = await command(w, 'engage-oncall', w.ids.member, inc.channel);
    expect(res.body.text).toBe('Opening a dialog to engage an oncall person...');
    const done = await submit(w, triggerId, w.ids.member, { service: { option: String(svc.body.id) }, page: { options: ['Yes'] } });
    expect(done.body.view.blocks[0].text.text).toContain('Database on-call');
    expect({ resolve: await jobsNamed(w, ONCALL_RESOLVE), page: await jobsNamed(w, ONCALL_PAGE) }).toEqual({
      resolve: before.resolve + 1,
      page: before.page + 1,
    });
    expect((await get(inc.id)).events.map((e: any) => e.description)).toContain('member@example.com engaged the on-call of Database on-call and paged it');
    await drain();
  });
});

describe('tasks', () => {
  it('create task assigns a task to a participant; list tasks and list my tasks show them', async () => {
    const { triggerId } = await command(w, 'create-task', w.ids.admin, inc.channel);
    const assignees = openedView(w, triggerId)
      .view.blocks.find((b: any) => b.block_id === 'assignees')
      .element.options.map((o: any) => o.value);
    expect(assignees).toContain('member@example.com');
    const done = await submit(w, triggerId, w.ids.admin, { assignees: { option: 'member@example.com' }, description: 'Check the replica' });
    expect(done.body.view.blocks[0].text.text).toBe('Task created successfully.');
    await call(w.t.app, 'POST', '/default/tasks', {
      token: w.owner,
      body: { incident: { id: inc.id }, description: 'Write the review', assignees: [{ individual: { email: 'owner@example.com' } }] },
    });

    const all = await command(w, 'list-tasks', w.ids.member, inc.channel);
    expect(all.res.body.text).toBe('Fetching the list of incident tasks...');
    const mine = await command(w, 'list-my-tasks', w.ids.member, inc.channel);
    expect(mine.res.body.text).toBe('Fetching your incident tasks...');
    await drain();
    const allText = textOf(answersAt(w, all.responseUrl)[0]);
    expect(allText).toContain('Check the replica');
    expect(allText).toContain('Write the review');
    const mineText = textOf(answersAt(w, mine.responseUrl)[0]);
    expect(mineText).toContain('Check the replica');
    expect(mineText).not.toContain('Write the review');
  });
});

describe('list participants', () => {
  it('lists the people who hold a role, with their roles', async () => {
    const { responseUrl } = await command(w, 'list-participants', w.ids.member, inc.channel);
    await drain();
    const [answer] = answersAt(w, responseUrl);
    expect(answer.text).toBe('Incident Participants');
    const text = textOf(answer);
    expect(text).toContain('admin@example.com');
    expect(text).toContain('Incident Commander');
    expect(text).toContain('Knows the database');
  });

  it('is retried when Slack rate limits, and answers once Slack lets it', async () => {
    const calls = w.slack.callsOf('users.info').length;
    w.slack.fail('users.info', { ratelimited: 1 });
    const { responseUrl } = await command(w, 'list-participants', w.ids.member, inc.channel);
    await drain();
    expect(answersAt(w, responseUrl)).toEqual([expect.objectContaining({ text: 'Incident Participants' })]);
    expect(w.slack.callsOf('users.info').length).toBe(calls + 2);
  });
});

describe('list signals', () => {
  it('lists the signal definitions whose conversation target is the channel', async () => {
    await call(w.t.app, 'POST', '/default/signals', {
      token: w.owner,
      body: {
        name: 'Impossible travel',
        owner: 'secops',
        external_id: 'travel-1',
        variant: 'eu',
        conversation_target: '#security',
        project: { name: 'default' },
      },
    });
    const here = await command(w, 'list-signals', w.ids.member, 'C-security', '', 'security');
    expect(here.res.body.text).toBe('Fetching the list of signals...');
    const elsewhere = await command(w, 'list-signals', w.ids.member, 'C-random', '', 'random');
    await drain();
    expect(textOf(answersAt(w, here.responseUrl)[0])).toContain('Impossible travel');
    expect(textOf(answersAt(w, elsewhere.responseUrl)[0])).toContain('There are no signals configured for #random');
  });
});
