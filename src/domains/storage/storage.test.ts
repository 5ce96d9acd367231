// Files of incidents and cases over HTTP: upload, list, download, delete; what is refused (too
// large, a type not accepted) stores nothing; a Restricted record's files are hidden with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { cases } from '../../../test/worlds/cases.ts';
import { api, createWorld, person, type World } from '../../../test/worlds/incidents.ts';

const MAX = 256 * 1024;
const w = {} as World;
beforeAll(async () => {
  Object.assign(w, await createWorld({ uploadMaxBytes: MAX }));
});
afterAll(() => w.t?.close());
const a = api(w);

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 7)]);

/** A multipart/form-data body with one file part, as a browser's form sends it. */
function form(name: string, type: string, content: Buffer) {
  const boundary = '----muster-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
  return { boundary, payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]) };
}

async function upload(path: string, name: string, type: string, content: Buffer, token = w.member) {
  const { boundary, payload } = form(name, type, content);
  const res = await w.t.app.inject({
    method: 'POST',
    url: `/api/v1/default/${path}/files`,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const download = (path: string, id: number, token = w.member) =>
  w.t.app.inject({ method: 'GET', url: `/api/v1/default/${path}/files/${id}`, headers: { authorization: `Bearer ${token}` } });

const list = (path: string, token = w.member) => call(w.t.app, 'GET', `/default/${path}/files`, { token });

describe('files of an incident', () => {
  let path: string;
  let incidentId: number;
  beforeAll(async () => {
    incidentId = (await a.create({ title: 'Files here' })).body.id;
    path = `incidents/${incidentId}`;
  });

  it('uploads, lists, downloads and deletes a file; the incident gains its folder and timeline entries', async () => {
    expect((await a.get(incidentId)).body.storage).toBeNull();
    const added = await upload(path, 'graph.png', 'text/html', PNG);
    expect(added.status).toBe(200);
    // The type is what the bytes are, not what the client said.
    expect(added.body).toMatchObject({ name: 'graph.png', content_type: 'image/png', size: PNG.length, creator: 'member@example.com' });

    const listed = await list(path);
    expect(listed.body).toEqual([added.body]);

    const got = await download(path, added.body.id);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-disposition']).toBe(`attachment; filename="graph.png"; filename*=UTF-8''graph.png`);
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const read = (await a.get(incidentId)).body;
    expect(read.storage).toMatchObject({ resource_type: 'muster-storage-folder', resource_id: `incident-${incidentId}` });
    expect(read.storage.weblink).toContain(`/default/incidents/${encodeURIComponent(read.name)}#files`);
    expect(read.events.map((e: any) => e.description)).toContain(`File added: graph.png (image/png, ${PNG.length} bytes)`);

    expect((await call(w.t.app, 'DELETE', `/default/${path}/files/${added.body.id}`, { token: w.member })).status).toBe(200);
    expect((await list(path)).body).toEqual([]);
    expect((await download(path, added.body.id)).statusCode).toBe(404);
    expect((await a.get(incidentId)).body.events.map((e: any) => e.description)).toContain('File removed: graph.png');
  });

  it('streams a file larger than one chunk of the database read whole and unchanged', async () => {
    const text = Buffer.from('line of a log file\n'.repeat(8000));
    const added = await upload(path, 'app.log', 'application/octet-stream', text);
    expect(added.body).toMatchObject({ content_type: 'text/plain; charset=utf-8', size: text.length });
    const got = await download(path, added.body.id);
    expect(got.rawPayload.equals(text)).toBe(true);
  });

  it('answers 413 for a file over the limit and 415 for a type not accepted, storing nothing', async () => {
    const before = (await list(path)).body.length;
    const big = await upload(path, 'big.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(MAX, 1)]));
    expect(big.status).toBe(413);
    expect(big.body.detail[0].msg).toContain(`larger than ${MAX} bytes`);
    for (const [name, bytes] of [
      ['page.html', Buffer.from('<!doctype html><script>alert(1)</script>')],
      ['image.svg', Buffer.from(' <svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
      ['tool.exe', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0xff, 0xfe])],
    ] as const) {
      const refused = await upload(path, name, 'text/plain', bytes);
      expect(refused.status, name).toBe(415);
    }
    expect((await list(path)).body.length).toBe(before);
    // Not multipart at all.
    const json = await call(w.t.app, 'POST', `/default/${path}/files`, { token: w.member, body: { file: 'x' } });
    expect(json.status).toBe(415);
  });

  it('keeps a file name to its last part, without quotes or control characters', async () => {
    for (const [sent, kept] of [
      ['../../etc/passwd.txt', 'passwd.txt'],
      ['C:\\Users\\me\\report.txt', 'report.txt'],
      ['..', 'file'],
    ]) {
      expect((await upload(path, sent, 'text/plain', Buffer.from('hello'))).body.name).toBe(kept);
    }
    const weird = await upload(path, 'Bericht über Ausfall.txt', 'text/plain', Buffer.from('hallo'));
    const got = await download(path, weird.body.id);
    expect(got.headers['content-disposition']).toBe(`attachment; filename="Bericht _ber Ausfall.txt"; filename*=UTF-8''Bericht%20%C3%BCber%20Ausfall.txt`);
  });
});

describe('files of a Restricted incident', () => {
  it('are hidden from a Member who does not take part: 404 on list, download, upload and delete', async () => {
    const restricted = (await a.create({ title: 'Secret', visibility: 'Restricted', commander: person('owner@example.com') }, w.owner)).body;
    const path = `incidents/${restricted.id}`;
    const added = await upload(path, 'evidence.pdf', 'application/pdf', Buffer.from('%PDF-1.7\n...'), w.owner);
    expect(added.status).toBe(200);
    expect((await list(path, w.owner)).body).toHaveLength(1);

    expect((await list(path)).status).toBe(404);
    expect((await download(path, added.body.id)).statusCode).toBe(404);
    expect((await upload(path, 'more.txt', 'text/plain', Buffer.from('x'))).status).toBe(404);
    expect((await call(w.t.app, 'DELETE', `/default/${path}/files/${added.body.id}`, { token: w.member })).status).toBe(404);
    // A file of one record is not reached through another the Member may see.
    const open = (await a.create({ title: 'Open one' })).body;
    expect((await download(`incidents/${open.id}`, added.body.id)).statusCode).toBe(404);
    expect((await list(path, w.owner)).body).toHaveLength(1);
  });
});

describe('files of a case', () => {
  it('uploads, lists and downloads; the case read shows its folder', async () => {
    const created = await cases(w).create({ title: 'Phishing report' }, w.owner);
    expect(created.status).toBe(200);
    const path = `cases/${created.body.id}`;
    const added = await upload(path, 'headers.json', 'text/plain', Buffer.from('{"from": "x@example.com"}'), w.owner);
    expect(added.body).toMatchObject({ content_type: 'application/json' });
    expect((await list(path, w.owner)).body).toHaveLength(1);
    expect((await download(path, added.body.id, w.owner)).body).toBe('{"from": "x@example.com"}');
    const read = await call(w.t.app, 'GET', `/default/cases/${created.body.id}`, { token: w.owner });
    expect(read.body.storage).toMatchObject({ resource_type: 'muster-storage-folder', resource_id: `case-${created.body.id}` });
  });
});
