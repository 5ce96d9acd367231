import { describe, expect, it } from 'vitest';
import { durationText } from '../../components/Time.tsx';
import { distinctTitle, keyFields } from './SignalSummary.tsx';
import type { SignalInstance } from './types.ts';

describe('the key fields of an alert', () => {
  it('are its first plain top-level values, nested ones and empty ones left to the raw document', () => {
    const raw = { rule: 'Impossible travel', user: 'ana@corp.example', score: 87, blocked: false, empty: '', geo: { from: 'PT', to: 'BR' }, ips: ['1.2.3.4'] };
    expect(keyFields(raw)).toEqual([
      ['rule', 'Impossible travel'],
      ['user', 'ana@corp.example'],
      ['score', '87'],
      ['blocked', 'false'],
    ]);
  });

  it('are none for a document that is not an object', () => {
    expect(keyFields(null)).toEqual([]);
    expect(keyFields('text')).toEqual([]);
    expect(keyFields([{ a: 1 }])).toEqual([]);
  });

  it('are at most eight', () => {
    expect(keyFields(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i])))).toHaveLength(8);
  });
});

describe('elapsed time as read at a glance', () => {
  it('counts minutes, then hours, then days', () => {
    const min = 60_000;
    expect(durationText(0)).toBe('0 min');
    expect(durationText(47 * min + 59_000)).toBe('47 min');
    expect(durationText(60 * min)).toBe('1 h');
    expect(durationText(303 * min)).toBe('5 h 3 min');
    expect(durationText(48 * 60 * min)).toBe('2 d');
    expect(durationText((3 * 24 + 4) * 60 * min)).toBe('3 d 4 h');
    expect(durationText(-5 * min)).toBe('0 min');
  });
});

describe("a title that tells a signal's case apart", () => {
  const instance = (raw: unknown, entities: string[] = []) =>
    ({
      created_at: '2026-11-28T01:00:00Z',
      signal: { id: 1, name: 'Impossible travel' },
      raw,
      entities: entities.map((value) => ({ value })),
    }) as unknown as SignalInstance;

  it('is the signal name and the first entity, else the field naming who or what, else the first field', () => {
    expect(distinctTitle([instance({ to: 'Manila', from: 'Lisbon', user: 'ana@corp.example', variant: 'travel' }, ['10.0.0.7'])])).toBe(
      'Impossible travel: 10.0.0.7',
    );
    expect(distinctTitle([instance({ to: 'Manila', from: 'Lisbon', user: 'ana@corp.example', variant: 'travel' })])).toBe(
      'Impossible travel: ana@corp.example',
    );
    expect(distinctTitle([instance({ variant: 'travel', to: 'Manila' })])).toBe('Impossible travel: Manila');
    expect(distinctTitle([instance({ variant: 'travel' })])).toBeNull();
    expect(distinctTitle([])).toBeNull();
  });
});
