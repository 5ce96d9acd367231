// The documents of incidents and cases over HTTP: the incident document made on create, the review
// made on Stable from the record, edits that conflict instead of overwriting, Restricted records'
// documents hidden from non-participants, export, read-only on close and the resolver's links.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, person, useWorld } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const a = api(w);

const docOf = (incident: any, type: string) => (incident.documents as any[]).find((d) => d.resource_type === type);
const content = (id: number, token = w.member) => call(w.t.app, 'GET', `/default/documents/${id}/content`, { token });
const save = (id: number, body: unknown, token = w.member) => call(w.t.app, 'PUT', `/default/documents/${id}/content`, { token, body });

describe('documents of incidents', () => {
  let incident: any;
  beforeAll(async () => {
    incident = (await a.create({ title: 'Checkout latency', description: 'Payments time out at checkout.', commander: person('owner@example.com') })).body;
  });

  it('an incident is created with its incident document, from the template, in its reads', async () => {
    expect(incident.documents).toHaveLength(1);
    const doc = docOf(incident, 'dispatch-incident-document');
    expect(doc).toMatchObject({ name: `Incident document: ${incident.name}`, project: { name: 'default' } });
    expect(doc.weblink).toMatch(/^http/);
    const got = (await a.get(incident.id)).body;
    expect(got.documents.map((d: any) => d.id)).toEqual([doc.id]);
    const text = await content(doc.id);
    expect(text.status).toBe(200);
    expect(text.body).toMatchObject({ version: 1, read_only: false });
    expect(text.body.content).toContain('# Checkout latency');
    expect(text.body.content).toContain('Payments time out at checkout.');
    expect(text.body.content).not.toContain('{{');
    // On its timeline too.
    expect(got.events.map((e: any) => e.description)).toContain('Incident document created');
  });

  it('a stale edit conflicts instead of overwriting; revisions keep who and when', async () => {
    const doc = docOf(incident, 'dispatch-incident-document');
    const first = await save(doc.id, { content: '# Mine', version: 1 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ content: '# Mine', version: 2 });
    const stale = await save(doc.id, { content: '# Theirs', version: 1 }, w.owner);
    expect(stale.status).toBe(409);
    expect((await content(doc.id)).body.content).toBe('# Mine');
    const revisions = await call(w.t.app, 'GET', `/default/documents/${doc.id}/revisions`, { token: w.member });
    expect(revisions.body.map((r: any) => [r.version, r.author])).toEqual([
      [2, 'member@example.com'],
      [1, 'member@example.com'],
    ]);
  });

  it('becoming Stable writes the review from the record; it exports as Markdown and PDF', async () => {
    const task = await call(w.t.app, 'POST', '/default/tasks', {
      token: w.owner,
      body: { incident: { id: incident.id }, description: 'Raise the payment timeout', assignees: [person('member@example.com')] },
    });
    expect(task.status).toBe(200);
    const report = await a.post(incident.id, 'report/tactical', w.owner, { conditions: 'Queue drained', actions: 'Scaled out', needs: 'Nothing' });
    expect(report.status).toBe(200);
    const stable = await a.edit(incident.id, { status: 'Stable' });
    expect(stable.status).toBe(200);
    const review = docOf(stable.body, 'dispatch-incident-review-document');
    expect(review).toMatchObject({ name: `Post-incident review: ${incident.name}` });
    const text = (await content(review.id)).body.content as string;
    expect(text).toContain('# Post-incident review: Checkout latency');
    expect(text).toContain('Payments time out at checkout.');
    expect(text).toMatch(/- \[ \] Raise the payment timeout \(owner: [^)]*member@example\.com/);
    expect(text).toMatch(/owner@example\.com>?: [^\n]*Incident Commander/);
    expect(text).toContain('Queue drained');
    expect(text).toMatch(/Time to stable: \d+ min/);
    // Not closed yet: its time waits for the close.
    expect(text).toContain('Time to closed: {{time_to_closed}}');
    expect(text).toContain('Incident document created');

    const md = await call(w.t.app, 'GET', `/default/documents/${review.id}/export`, { token: w.member, query: { format: 'markdown' } });
    expect(md.status).toBe(200);
    expect(md.headers['content-type']).toMatch(/^text\/markdown/);
    expect(md.body).toBe(text);
    const pdf = await w.t.app.inject({
      method: 'GET',
      url: `/api/v1/default/documents/${review.id}/export?format=pdf`,
      headers: { authorization: `Bearer ${w.member}` },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBeGreaterThan(1000);

    // Searchable by what it says.
    const found = await call(w.t.app, 'GET', '/default/search', { token: w.member, query: { 'type[]': ['Document'], q: 'drained' } });
    expect(found.body.results.documents.map((d: any) => d.id)).toEqual([review.id]);
  });

  it("reviewers add action items; the review's open ones become tasks of the incident, once", async () => {
    const review = docOf((await a.get(incident.id)).body, 'dispatch-incident-review-document');
    const current = (await content(review.id)).body;
    const edited = current.content.replace('## Action items\n', '## Action items\n\n- [ ] Alert on payment timeouts (owner: owner@example.com)\n');
    expect((await save(review.id, { content: edited, version: current.version })).status).toBe(200);
    const made = await call(w.t.app, 'POST', `/default/documents/${review.id}/action_items`, { token: w.member });
    expect(made.status).toBe(200);
    // The task the review was filled from is not made again.
    expect(made.body.map((t: any) => [t.description, t.source, t.assignees.map((p: any) => p.individual.email)])).toEqual([
      ['Alert on payment timeouts', 'Post Incident Review', ['owner@example.com']],
    ]);
    const again = await call(w.t.app, 'POST', `/default/documents/${review.id}/action_items`, { token: w.member });
    expect(again.body).toEqual([]);
  });

  it('closing fills the time to closed and makes the documents read-only', async () => {
    const closed = await a.edit(incident.id, { status: 'Closed' });
    expect(closed.status).toBe(200);
    const review = docOf(closed.body, 'dispatch-incident-review-document');
    const text = await content(review.id);
    expect(text.body.read_only).toBe(true);
    expect(text.body.content).toMatch(/Time to closed: \d+ min/);
    const refused = await save(review.id, { content: 'late', version: text.body.version });
    expect(refused.status).toBe(403);
  });

  it("a Restricted incident's documents are hidden from a Member who is not its participant", async () => {
    const secret = (await a.create({ title: 'Quietwombat breach', visibility: 'Restricted' }, w.owner)).body;
    const doc = docOf(secret, 'dispatch-incident-document');
    expect(doc).toBeDefined();
    for (const [method, path] of [
      ['GET', `/default/documents/${doc.id}`],
      ['GET', `/default/documents/${doc.id}/content`],
      ['GET', `/default/documents/${doc.id}/revisions`],
      ['GET', `/default/documents/${doc.id}/export`],
      ['PUT', `/default/documents/${doc.id}/content`],
    ] as const) {
      const res = await call(w.t.app, method, path, { token: w.member, body: method === 'PUT' ? { content: 'x', version: 1 } : undefined });
      expect(res.status, path).toBe(404);
    }
    const put = await call(w.t.app, 'PUT', `/default/documents/${doc.id}`, { token: w.member, body: { name: 'Taken over' } });
    expect(put.status).toBe(404);
    const listed = await call(w.t.app, 'GET', '/default/documents', { token: w.member, query: { itemsPerPage: -1, q: 'Quietwombat' } });
    expect(listed.body.total).toBe(0);
    const all = await call(w.t.app, 'GET', '/default/documents', { token: w.member, query: { itemsPerPage: -1 } });
    expect(all.body.items.map((d: any) => d.id)).not.toContain(doc.id);
    const searched = await call(w.t.app, 'GET', '/default/search', { token: w.member, query: { 'type[]': ['Document'], q: 'Quietwombat' } });
    expect(searched.body.results.documents).toEqual([]);
    // Its participants and the organization's Admins see it.
    expect((await content(doc.id, w.owner)).status).toBe(200);
    expect((await content(doc.id, w.admin)).status).toBe(200);
    const ownerSearch = await call(w.t.app, 'GET', '/default/search', { token: w.owner, query: { 'type[]': ['Document'], q: 'Quietwombat' } });
    expect(ownerSearch.body.results.documents.map((d: any) => d.id)).toEqual([doc.id]);
  });

  it('weblinks are web addresses only', async () => {
    for (const weblink of ['javascript:alert(1)', 'data:text/html,hi', 'not a url']) {
      const res = await call(w.t.app, 'POST', '/default/documents', {
        token: w.member,
        body: { name: `Bad ${weblink}`, weblink, project: { name: 'default' } },
      });
      expect(res.status, weblink).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['weblink'] });
    }
  });

  it("the resolver links the project's documents whose search filters match", async () => {
    const filter = await call(w.t.app, 'POST', '/default/search/filters', {
      token: w.owner,
      body: { name: 'Database incidents', expression: [{ model: 'Incident', field: 'title', op: 'like', value: '%database%' }], project: { name: 'default' } },
    });
    expect(filter.status).toBe(200);
    const runbook = await call(w.t.app, 'POST', '/default/documents', {
      token: w.owner,
      body: { name: 'Database runbook', weblink: 'https://wiki.example.com/db', filters: [{ id: filter.body.id }], project: { name: 'default' } },
    });
    expect(runbook.status).toBe(200);
    const matching = (await a.create({ title: 'The database is down' })).body;
    expect(matching.documents.map((d: any) => d.name)).toEqual(['Database runbook', `Incident document: ${matching.name}`]);
    const other = (await a.create({ title: 'The cache is down' })).body;
    expect(other.documents.map((d: any) => d.name)).toEqual([`Incident document: ${other.name}`]);
  });
});

describe('documents of cases', () => {
  it('a case is created with its case document', async () => {
    const created = await call(w.t.app, 'POST', '/default/cases', { token: w.member, body: { title: 'Suspicious login', description: 'From abroad.' } });
    expect(created.status).toBe(200);
    const doc = (created.body.documents as any[]).find((d) => d.resource_type === 'dispatch-case-document');
    expect(doc).toBeDefined();
    expect((await content(doc.id)).body.content).toContain('# Suspicious login');
  });

  it("a case's document takes its type's template, else its project's, else Muster's", async () => {
    const templateDoc = async (name: string, resourceType: string | null, text: string) => {
      const made = await call(w.t.app, 'POST', '/default/documents', {
        token: w.owner,
        body: { name, resource_type: resourceType, project: { name: 'default' } },
      });
      expect(made.status).toBe(200);
      expect((await save(made.body.id, { content: text, version: 1 }, w.owner)).status).toBe(200);
      return made.body.id as number;
    };
    const caseDocument = async (body: Record<string, unknown>) => {
      const created = await call(w.t.app, 'POST', '/default/cases', { token: w.member, body: { description: 'Seen twice.', ...body } });
      expect(created.status).toBe(200);
      const doc = (created.body.documents as any[]).find((d) => d.resource_type === 'dispatch-case-document');
      return (await content(doc.id)).body.content as string;
    };
    const typeTemplate = await templateDoc('Phishing case template', null, '# Phishing: {{title}}');
    const type = await call(w.t.app, 'POST', '/default/case_types', {
      token: w.owner,
      body: { name: 'Phishing', case_template_document: { id: typeTemplate }, project: { name: 'default' } },
    });
    expect(type.status).toBe(200);
    // Before the project has a template of its own: Muster's for the default type.
    expect(await caseDocument({ title: 'Odd mail' })).toContain('# Odd mail');
    await templateDoc('Case template', 'dispatch-case-document-template', '# Case: {{title}} ({{status}})');
    expect(await caseDocument({ title: 'Odd login' })).toBe('# Case: Odd login (New)');
    expect(await caseDocument({ title: 'Bad link', case_type: { name: 'Phishing' } })).toBe('# Phishing: Bad link');
  });
});
