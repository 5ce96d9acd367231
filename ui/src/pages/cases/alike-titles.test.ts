import { describe, expect, it } from 'vitest';
import { alikeIds } from './alike-titles.ts';

describe('rows of the cases table that share a title', () => {
  it('are those whose title another row of the page has', () => {
    const rows = [
      { id: 1, title: 'Impossible travel' },
      { id: 2, title: 'Disk full on db-3' },
      { id: 3, title: 'Impossible travel' },
      { id: 4, title: 'Impossible travel' },
    ];
    expect(alikeIds(rows)).toEqual([1, 3, 4]);
  });

  it('are none when every title is its own', () => {
    expect(
      alikeIds([
        { id: 1, title: 'A' },
        { id: 2, title: 'B' },
      ]),
    ).toEqual([]);
    expect(alikeIds([])).toEqual([]);
  });
});
