// The search's first tier finds names and titles by the beginnings of their words, and answers what
// the words themselves say: a phrase only in its order, a word longer than the beginnings the index
// keeps, a word PostgreSQL reads as two, and a `q` of nothing but negations (whose beginnings narrow
// nothing down).
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, useWorld } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const incidents = api(w);

const titles = async (q: string, token = w.member) => {
  const res = await call(w.t.app, 'GET', '/default/search', { token, query: { q, 'type[]': 'Incident' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.results.incidents as { title: string }[]).map((x) => x.title);
};

beforeAll(async () => {
  for (const title of ['Octopus camouflage drill', 'Camouflage of the octopus', 'Cephalopodology seminar', 'Tide_pool survey']) {
    const res = await incidents.create({ title, description: 'Ink.' }, w.owner);
    expect(res.status).toBe(200);
  }
});

describe('GET /{organization}/search finds names and titles by their words', () => {
  it('finds a phrase only in its order, and both orders by their words', async () => {
    expect(await titles('"octopus camouflage"')).toEqual(['Octopus camouflage drill']);
    expect((await titles('octo camo')).sort()).toEqual(['Camouflage of the octopus', 'Octopus camouflage drill']);
  });

  it('finds a word by any beginning, longer than twelve letters too, and not by a beginning it lacks', async () => {
    expect(await titles('cephalo')).toEqual(['Cephalopodology seminar']);
    expect(await titles('cephalopodolog')).toEqual(['Cephalopodology seminar']);
    expect(await titles('cephalopodology')).toEqual(['Cephalopodology seminar']);
    expect(await titles('cephalopodologx')).toEqual([]);
  });

  it('finds words joined by an underscore in their order', async () => {
    expect(await titles('tide_pool')).toEqual(['Tide_pool survey']);
    expect(await titles('pool_tide')).toEqual([]);
  });

  it('answers a q of negations alone with records that hold none of the words', async () => {
    const found = await titles('-octopus -camouflage', w.admin);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((t) => /octopus|camouflage/i.test(t))).toEqual([]);
  });
});
