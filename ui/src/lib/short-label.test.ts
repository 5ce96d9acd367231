import { describe, expect, it } from 'vitest';
import { shortLabel } from './short-label.ts';

describe('shortLabel', () => {
  it("takes the name's number, the same for an incident and a case, told apart by the kind", () => {
    expect(shortLabel('INC', { name: 'muster-default-default-14', id: 3 })).toBe('INC-14');
    expect(shortLabel('CASE', { name: 'muster-default-default-14', id: 9 })).toBe('CASE-14');
  });
  it('falls back on the id when the name carries no number', () => {
    expect(shortLabel('CASE', { name: null, id: 9 })).toBe('CASE-9');
    expect(shortLabel('INC', { name: 'imported', id: 5 })).toBe('INC-5');
  });
});
