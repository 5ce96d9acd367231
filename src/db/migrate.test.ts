import { describe, expect, it } from 'vitest';
import { ancestors, heads, RevisionError, topoOrder, type Revision } from './migrate.ts';

const rev = (revision: string, down: string[]): Revision => ({ revision, down, message: revision, created: '', dir: '' });
const graph = new Map([rev('a', []), rev('b', ['a']), rev('c', ['a']), rev('m', ['b', 'c'])].map((r) => [r.revision, r]));

describe('revision graph', () => {
  it('finds heads, ancestors and a parents-first order', () => {
    expect(heads(graph)).toEqual(['m']);
    expect([...ancestors(graph, ['b'])].sort()).toEqual(['a', 'b']);
    expect(topoOrder(graph, new Set(graph.keys()))).toEqual(['a', 'b', 'c', 'm']);
  });

  it('names a revision it does not know instead of crashing', () => {
    expect(() => ancestors(graph, ['zzz'])).toThrow(RevisionError);
    expect(() => ancestors(graph, ['zzz'])).toThrow(/revision zzz, which this version of Muster does not know/);
  });
});
