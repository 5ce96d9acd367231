// Fields of a read object that follow the clock (an open case's cost grows by the minute). The code
// that sets them leaves with the object how to set them again at another time, from inputs it has
// already read, so that an answer kept while the tables it read are unchanged (list/kept-answers.ts)
// is brought to the time of each request instead of being read again.

/** Sets the object's clock-following fields again at `now`; true when one of them changed. */
export type ClockFields = (now: Date) => boolean;

const clocked = new WeakMap<object, ClockFields>();
let declarations = 0;

/** Declares that `object` has fields that follow the clock, which `set` sets again at any time. */
export function followsClock(object: object, set: ClockFields): void {
  clocked.set(object, set);
  declarations++;
}

/**
 * How many objects were ever declared to follow the clock: a read during which this did not change
 * holds none, and need not be walked (an incident dashboard's 3,000 items never are).
 */
export const clockDeclarations = (): number => declarations;

/**
 * The objects within `value` (itself, and what it nests at any depth) whose fields follow the clock.
 * `memo` keeps what was found within each object walked, for objects that many values share (the
 * project every item of a dashboard names is walked once). Read objects nest, they never cycle.
 */
export function clockedWithin(value: unknown, memo = new Map<object, readonly object[]>()): readonly object[] {
  if (value === null || typeof value !== 'object' || value instanceof Date) return [];
  const known = memo.get(value);
  if (known) return known;
  const found: object[] = clocked.has(value) ? [value] : [];
  const nested = Array.isArray(value) ? value : Object.values(value);
  for (const v of nested) if (v !== null && typeof v === 'object') found.push(...clockedWithin(v, memo));
  memo.set(value, found);
  return found;
}

/** Sets the clock-following fields of `objects` again at `now`; the objects whose fields changed. */
export function setAgain(objects: Iterable<object>, now: Date): Set<object> {
  const changed = new Set<object>();
  for (const object of objects) if (clocked.get(object)?.(now)) changed.add(object);
  return changed;
}
