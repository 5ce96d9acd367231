import { describe, expect, it } from 'vitest';
import { exactPattern, mergeMineFirst, mineFirstPlan, mineSpec } from './mine-first.ts';

/** Page `page` of the whole, built from the plan over two lists held here. */
function pageOf(mine: number[], rest: number[], page: number, size: number) {
  const plan = mineFirstPlan(mine.length, page, size);
  const minePage = plan.mine ? mine.slice((page - 1) * size, page * size) : [];
  return mergeMineFirst(
    minePage,
    plan.rest.map((slice) => ({ slice, items: rest.slice((slice.page - 1) * size, slice.page * size) })),
  );
}

describe('mine first', () => {
  const mine = [1, 2, 3, 4, 5, 6, 7];
  const rest = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111];

  it('pages mine, then the rest, as one list of the same size pages', () => {
    const whole = [...mine, ...rest];
    for (const size of [1, 2, 3, 5, 7, 10, 25]) {
      const pages = Math.ceil(whole.length / size);
      const seen: number[] = [];
      for (let page = 1; page <= pages; page++) {
        const rows = pageOf(mine, rest, page, size);
        expect(rows.length).toBe(Math.min(size, whole.length - (page - 1) * size));
        seen.push(...rows.map((r) => r.item));
      }
      expect(seen, `size ${size}`).toEqual(whole);
    }
  });

  it('marks which rows are mine', () => {
    expect(pageOf(mine, rest, 2, 5).map((r) => [r.item, r.mine])).toEqual([
      [6, true],
      [7, true],
      [101, false],
      [102, false],
      [103, false],
    ]);
  });

  it('asks for the fewest pages: none of the rest on a page of mine, at most two of the rest otherwise', () => {
    expect(mineFirstPlan(7, 1, 5)).toEqual({ mine: true, rest: [] });
    expect(mineFirstPlan(7, 2, 5)).toEqual({ mine: true, rest: [{ page: 1, skip: 0, take: 3 }] });
    expect(mineFirstPlan(7, 3, 5)).toEqual({
      mine: false,
      rest: [
        { page: 1, skip: 3, take: 2 },
        { page: 2, skip: 0, take: 3 },
      ],
    });
    expect(mineFirstPlan(10, 3, 5)).toEqual({ mine: false, rest: [{ page: 1, skip: 0, take: 5 }] });
    expect(mineFirstPlan(0, 2, 25)).toEqual({ mine: false, rest: [{ page: 2, skip: 0, take: 25 }] });
  });

  it('matches the signed-in email exactly, whatever its case, through owner or assignee', () => {
    expect(exactPattern('a_b%c\\d@example.com')).toBe('a\\_b\\%c\\\\d@example.com');
    expect(mineSpec('me@example.com')).toEqual({
      or: [
        { model: 'Owner', field: 'email', op: 'ilike', value: 'me@example.com' },
        { model: 'Assignee', field: 'email', op: 'ilike', value: 'me@example.com' },
      ],
    });
  });
});
