// "Mine first": the tasks whose owner or an assignee is the signed-in person, then everyone else's,
// as one list paged by the API. The API sorts by fields, not by "is mine", so the list is two
// lists (mine, then the rest, each in the chosen order) laid end to end: a page of the whole is a
// page of mine, or the tail of mine and the head of the rest, or up to two pages of the rest.
import type { FilterSpec } from '../../lib/filters.ts';

/** A LIKE pattern that matches `text` exactly (ignoring case, with ILIKE). */
export const exactPattern = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Tasks whose owner or an assignee has this email. */
export function mineSpec(email: string): FilterSpec {
  const value = exactPattern(email);
  return {
    or: [
      { model: 'Owner', field: 'email', op: 'ilike', value },
      { model: 'Assignee', field: 'email', op: 'ilike', value },
    ],
  };
}

/** `a` and `b` both (either may be absent). */
export function both(a: FilterSpec | null, b: FilterSpec | null): FilterSpec | null {
  if (a && b) return { and: [a, b] };
  return a ?? b;
}

export const notSpec = (spec: FilterSpec): FilterSpec => ({ not: [spec] }) as unknown as FilterSpec;

/** Rows `[skip, skip + take)` of page `page` of the rest. */
export interface Slice {
  page: number;
  skip: number;
  take: number;
}

/**
 * Which requests make page `page` (of `size` rows) of mine-then-the-rest, given how many are mine:
 * page `page` of mine (its rows are exactly the whole's, up to the end of mine) and the slices of
 * the rest's pages (of the same size) that follow.
 */
export function mineFirstPlan(mineTotal: number, page: number, size: number): { mine: boolean; rest: Slice[] } {
  const start = (page - 1) * size;
  const end = start + size;
  const from = Math.max(start, mineTotal) - mineTotal;
  const to = end - mineTotal;
  const rest: Slice[] = [];
  for (let p = Math.floor(from / size) + 1; to > from && (p - 1) * size < to; p++) {
    const first = Math.max(from, (p - 1) * size);
    const last = Math.min(to, p * size);
    rest.push({ page: p, skip: first - (p - 1) * size, take: last - first });
  }
  return { mine: start < mineTotal, rest };
}

/** The page's rows: mine (marked), then the slices of the rest, in order. */
export function mergeMineFirst<T>(mine: T[], rest: { slice: Slice; items: T[] }[]): { item: T; mine: boolean }[] {
  return [
    ...mine.map((item) => ({ item, mine: true })),
    ...rest.flatMap(({ slice, items }) => items.slice(slice.skip, slice.skip + slice.take).map((item) => ({ item, mine: false }))),
  ];
}
