// Cost models through the calls of the web UI's cost model settings page and its incident and case
// type forms (beyond 0.1.0): the plugin events the activity dialog offers, the table's list, the
// edit sheet's create and update (the whole selected object sent back), the type forms' cost model
// picker, and delete.
import type { WebhookPlugin } from '../../plugins/types.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { installPlugins } from '../plugin/catalogue.ts';

let t: TestApp;
let owner: string;
let member: string;
type Event = { id: number; name: string; slug: string; description: string; plugin: { id: number; slug: string; title: string } };
let timeline: Event;
let chatMessage: Event;
let chatReaction: Event;
let project: Record<string, unknown>;

// A plugin of an outside system whose events people's activity is priced by, written to the
// catalogue as `muster plugins install` writes one (its function is never called here).
const chatPlugin: WebhookPlugin = {
  slug: 'test-chat',
  title: 'Test Chat Plugin',
  type: 'webhook',
  version: '1.0.0',
  author: 'Tests',
  author_url: '',
  description: 'A chat system.',
  events: [
    { slug: 'test-chat-message', name: 'Chat Message', description: 'A message in the channel.' },
    { slug: 'test-chat-reaction', name: 'Chat Reaction', description: 'A reaction to a message.' },
  ],
  deliver: async () => {},
};

const url = '/default/cost_models';
const ui = { itemsPerPage: 25, page: 1 };

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  await installPlugins(t.database.db, { plugins: [chatPlugin] });
  project = (await call(t.app, 'GET', '/default/projects', { token: owner })).body.items[0];
  const events: Event[] = (await call(t.app, 'GET', '/default/plugins/plugin_events', { token: member })).body.items;
  const bySlug = (slug: string) => events.find((e) => e.slug === slug)!;
  timeline = bySlug('muster-timeline-activity');
  chatMessage = bySlug('test-chat-message');
  chatReaction = bySlug('test-chat-reaction');
});
afterAll(() => t.close());

/** The edit sheet's selected state as it posts it: nulls for what is unset, the project picked, a loading flag. */
const selected = (over: Record<string, unknown>) => ({
  id: null,
  name: null,
  enabled: null,
  description: null,
  created_at: null,
  updated_at: null,
  project,
  loading: false,
  activities: [],
  ...over,
});
const activity = (event: Event, seconds: number | string = 300) => ({ enabled: true, plugin_event: event, response_time_seconds: seconds });

describe('plugin events', () => {
  it("lists every plugin's events with their plugin, as the plugin picker asks (no parameters)", async () => {
    const res = await call(t.app, 'GET', '/default/plugins/plugin_events', { token: member });
    expect(res.status).toBe(200);
    expect(timeline).toEqual({
      id: expect.any(Number),
      name: 'Muster Timeline Activity',
      slug: 'muster-timeline-activity',
      description: expect.stringContaining('timeline'),
      plugin: expect.objectContaining({ slug: 'muster-participant-resolver', title: 'Muster Plugin - Participant Resolver', type: 'participant' }),
    });
    expect(res.body.total).toBe(3);
  });

  it('filters by the plugin picked and searches, as the event picker asks', async () => {
    const filter = JSON.stringify({ and: [{ or: [{ model: 'Plugin', field: 'id', op: '==', value: chatMessage.plugin.id }] }] });
    const res = await call(t.app, 'GET', '/default/plugins/plugin_events', { token: member, query: { itemsPerPage: 5, filter } });
    expect(res.body.items.map((e: Event) => e.slug).sort()).toEqual(['test-chat-message', 'test-chat-reaction']);
    const q = await call(t.app, 'GET', '/default/plugins/plugin_events', { token: member, query: { itemsPerPage: 5, filter, q: 'reaction' } });
    expect(q.body.items.map((e: Event) => e.slug)).toEqual(['test-chat-reaction']);
  });
});

describe('cost models', () => {
  let model: Record<string, any>;

  it('creates from the edit sheet, activities read with their plugin events and plugins', async () => {
    const res = await call(t.app, 'POST', url, {
      token: owner,
      body: selected({ name: 'Chat effort', description: 'Time spent in chat', activities: [activity(chatMessage, 120), activity(timeline)] }),
    });
    expect(res.status).toBe(200);
    model = res.body;
    expect(model).toEqual({
      id: expect.any(Number),
      name: 'Chat effort',
      description: 'Time spent in chat',
      enabled: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      project: expect.objectContaining({ id: project.id, name: 'default' }),
      activities: [
        { id: expect.any(Number), plugin_event: chatMessage, response_time_seconds: 120, enabled: true },
        { id: expect.any(Number), plugin_event: timeline, response_time_seconds: 300, enabled: true },
      ],
    });
  });

  it('lists for the table and the type forms picker, with q, project filter and sort', async () => {
    await call(t.app, 'POST', url, { token: owner, body: selected({ name: 'Another model', enabled: false }) });
    const table = await call(t.app, 'GET', url, {
      token: member,
      query: {
        ...ui,
        'sortBy[]': 'name',
        'descending[]': false,
        filter: JSON.stringify({ and: [{ or: [{ model: 'Project', field: 'name', op: '==', value: 'default' }] }] }),
      },
    });
    expect(table.status).toBe(200);
    expect(table.body).toMatchObject({ total: 2, page: 1 });
    expect(table.body.items.map((m: { name: string }) => m.name)).toEqual(['Another model', 'Chat effort']);
    expect(table.body.items[1]).toEqual(model);
    // The cost model picker of the type forms: five at a time, searched by what is typed.
    const picker = await call(t.app, 'GET', url, { token: member, query: { itemsPerPage: 5, q: 'chat' } });
    expect(picker.body.items.map((m: { name: string }) => m.name)).toEqual(['Chat effort']);
    expect((await call(t.app, 'GET', `${url}/${model.id}`, { token: member })).body).toEqual(model);
  });

  it('updates from the read object sent back: activities matched by plugin event keep their ids, the others go', async () => {
    const [message] = model.activities;
    const res = await call(t.app, 'PUT', `${url}/${model.id}`, {
      token: owner,
      // The activity row's text field sends the seconds back as a string.
      body: {
        ...model,
        loading: false,
        description: 'Chat and reactions',
        activities: [{ ...message, response_time_seconds: '90' }, activity(chatReaction, 30)],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('Chat and reactions');
    expect(res.body.activities).toEqual([
      { id: message.id, plugin_event: chatMessage, response_time_seconds: 90, enabled: true },
      { id: expect.any(Number), plugin_event: chatReaction, response_time_seconds: 30, enabled: true },
    ]);
    // Activities left out of the body are kept; enabled null keeps what is stored.
    const kept = await call(t.app, 'PUT', `${url}/${model.id}`, { token: owner, body: { name: 'Chat effort', enabled: null } });
    expect(kept.body).toMatchObject({ enabled: true, activities: res.body.activities });
    model = kept.body;
  });

  it('refuses an unknown or repeated plugin event, naming the activity', async () => {
    const unknown = await call(t.app, 'POST', url, {
      token: owner,
      body: selected({ name: 'Unknown event', activities: [activity({ ...timeline, id: 999999 })] }),
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['activities', 0, 'plugin_event'], msg: 'Plugin event not found.', type: 'value_error.not_found' });
    const twice = await call(t.app, 'PUT', `${url}/${model.id}`, {
      token: owner,
      body: { ...model, activities: [activity(timeline), activity(timeline, 60)] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.detail[0]).toMatchObject({ loc: ['activities', 1, 'plugin_event'], type: 'value_error.duplicate' });
    expect((await call(t.app, 'GET', `${url}/${model.id}`, { token: member })).body.activities).toEqual(model.activities);
    const negative = await call(t.app, 'POST', url, { token: owner, body: selected({ name: 'Negative', activities: [activity(timeline, -5)] }) });
    expect(negative.body.detail[0].loc).toEqual(['body', 'activities', 0, 'response_time_seconds']);
  });

  it('validates names and duplicates, lets Members read but not write', async () => {
    expect((await call(t.app, 'POST', url, { token: owner, body: selected({ name: 'ab' }) })).body.detail[0].loc).toEqual(['body', 'name']);
    const dup = await call(t.app, 'POST', url, { token: owner, body: selected({ name: 'Chat effort' }) });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A cost model with this name already exists.', type: 'value_error.exists' });
    expect((await call(t.app, 'POST', url, { token: member, body: selected({ name: 'By a member' }) })).status).toBe(403);
    expect((await call(t.app, 'PUT', `${url}/${model.id}`, { token: member, body: model })).status).toBe(403);
    expect((await call(t.app, 'DELETE', `${url}/${model.id}`, { token: member })).status).toBe(403);
  });

  it('stays in its organization: others neither read it nor name it in their types', async () => {
    const stranger = await register(t.app, 'stranger@example.com', 'default');
    await call(t.app, 'POST', '/organizations', { token: stranger, body: { name: 'Elsewhere' } });
    expect((await call(t.app, 'GET', `/elsewhere/cost_models/${model.id}`, { token: stranger })).status).toBe(404);
    expect((await call(t.app, 'GET', '/elsewhere/cost_models', { token: stranger })).body.total).toBe(0);
    const theirType = (await call(t.app, 'GET', '/elsewhere/case_types', { token: stranger })).body.items[0];
    const named = await call(t.app, 'PUT', `/elsewhere/case_types/${theirType.id}`, { token: stranger, body: { ...theirType, cost_model: { id: model.id } } });
    expect(named.status).toBe(422);
    expect(named.body.detail[0]).toMatchObject({ loc: ['cost_model'], msg: 'Cost model not found.' });
  });
});

describe('incident and case types with a cost model', () => {
  it('take the model the picker gives, read it with its activities, and clear it with null', async () => {
    const models = (await call(t.app, 'GET', url, { token: member, query: { itemsPerPage: 5 } })).body.items;
    const chat = models.find((m: { name: string }) => m.name === 'Chat effort');
    for (const types of ['incident_types', 'case_types']) {
      const [type] = (await call(t.app, 'GET', `/default/${types}`, { token: member })).body.items;
      const res = await call(t.app, 'PUT', `/default/${types}/${type.id}`, { token: owner, body: { ...type, cost_model: chat } });
      expect(res.status).toBe(200);
      expect(res.body.cost_model).toEqual(chat);
      expect((await call(t.app, 'GET', `/default/${types}/${type.id}`, { token: member })).body.cost_model).toEqual(chat);
      const created = await call(t.app, 'POST', `/default/${types}`, {
        token: owner,
        body: { name: `Priced ${types}`, project, cost_model: { name: 'Chat effort' } },
      });
      expect(created.body.cost_model).toMatchObject({ id: chat.id, activities: chat.activities });
      const cleared = await call(t.app, 'PUT', `/default/${types}/${type.id}`, { token: owner, body: { ...res.body, cost_model: null } });
      expect(cleared.body.cost_model).toBeNull();
    }
  });

  it('keep working when their cost model is deleted', async () => {
    const doomed = await call(t.app, 'POST', url, { token: owner, body: selected({ name: 'Short lived', activities: [activity(timeline)] }) });
    const caseType = await call(t.app, 'POST', '/default/case_types', {
      token: owner,
      body: { name: 'Doomed pricing', project, cost_model: { id: doomed.body.id } },
    });
    const incidentType = await call(t.app, 'POST', '/default/incident_types', {
      token: owner,
      body: { name: 'Doomed pricing', project, cost_model: { id: doomed.body.id } },
    });
    expect(caseType.body.cost_model.id).toBe(doomed.body.id);
    expect(await call(t.app, 'DELETE', `${url}/${doomed.body.id}`, { token: owner })).toMatchObject({ status: 200, body: null });
    expect((await call(t.app, 'GET', `${url}/${doomed.body.id}`, { token: owner })).status).toBe(404);
    const after = await call(t.app, 'GET', `/default/case_types/${caseType.body.id}`, { token: member });
    expect(after).toMatchObject({ status: 200, body: { name: 'Doomed pricing', cost_model: null } });
    expect((await call(t.app, 'GET', `/default/incident_types/${incidentType.body.id}`, { token: member })).body.cost_model).toBeNull();
    // A case of that type is still reported and read, its new-model cost 0.
    const reported = await call(t.app, 'POST', '/default/cases', {
      token: member,
      body: { title: 'Typed', description: 'x', case_type: { id: caseType.body.id } },
    });
    expect(reported).toMatchObject({ status: 200, body: { case_type: { id: caseType.body.id }, total_cost_new: 0 } });
  });
});
