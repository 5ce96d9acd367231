// Dispatch's search page (search/ResultList.vue at /search/results?q=): search/store.js sends
// `GET /{org}/search?q=...&type[]=Document&type[]=Incident&type[]=Case&type[]=Tag&type[]=Task&type[]=Source&type[]=Query`
// and keeps `results`; the page reads `results.<key>.length` of incidents, cases, tasks, sources,
// queries, documents and tags (a key missing would throw and show nothing), and case/CaseSummaryTable.vue
// reads each case's name, title, status, case_type.name, case_priority (name, color), project
// (display_name, color, allow_self_join), reported_at, incidents and assignee.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { cases, person, useWorld } from '../worlds/cases.ts';

const w = useWorld();
const TYPES = ['Document', 'Incident', 'Case', 'Tag', 'Task', 'Source', 'Query'];
const search = (q: string, token = w.member) => call(w.t.app, 'GET', '/default/search', { token, query: { q, 'type[]': TYPES } });

let name: string;
beforeAll(async () => {
  const made = await cases(w).create({
    title: 'Suspicious login from Lisbon',
    description: 'Seen by the payroll gateway.',
    assignee: person('analyst@corp.example'),
  });
  name = made.body.name;
});

describe("Dispatch's search page", () => {
  it('finds a case by a word of its title, of its description, and by its name, with what the cases table reads', async () => {
    for (const q of ['Lisbon', 'suspicious login', 'payroll', name]) {
      const res = await search(q);
      expect(res.status, q).toBe(200);
      for (const key of ['incidents', 'cases', 'tasks', 'sources', 'queries', 'documents', 'tags'])
        expect(Array.isArray(res.body.results[key]), key).toBe(true);
      expect(
        res.body.results.cases.map((c: any) => c.name),
        q,
      ).toEqual([name]);
      expect(res.body.results.cases[0]).toMatchObject({
        name,
        title: 'Suspicious login from Lisbon',
        status: expect.any(String),
        reported_at: expect.any(String),
        case_type: { name: expect.any(String) },
        case_priority: { name: expect.any(String), color: expect.any(String) },
        project: { display_name: 'default', allow_self_join: true },
        incidents: [],
        assignee: { individual: { email: 'analyst@corp.example' } },
      });
    }
  });

  it('answers every key, empty, when nothing matches', async () => {
    const res = await search('zyxwvut');
    expect(res.status).toBe(200);
    expect(Object.values(res.body.results).every((v) => Array.isArray(v) && v.length === 0)).toBe(true);
  });
});
