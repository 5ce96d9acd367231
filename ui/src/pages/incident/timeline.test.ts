import { describe, expect, it } from 'vitest';
import {
  contentOf,
  cutoffOf,
  eventLink,
  eventOfHash,
  filterTimeline,
  foldSystem,
  NO_FILTER,
  newestFirst,
  paramsWithTimelineFilter,
  timelineCsv,
  timelineFilterFromParams,
} from './timeline.ts';

const ev = (
  over: Partial<{
    uuid: string;
    type: string | null;
    source: string;
    description: string;
    owner: string | null;
    started_at: string;
    details: Record<string, unknown>;
  }>,
) => ({
  uuid: '00000000-0000-4000-8000-000000000001',
  type: 'Other',
  source: 'Muster Core App',
  description: 'Incident created',
  owner: 'a@example.com',
  started_at: '2026-11-24T10:00:00Z',
  details: null as Record<string, unknown> | null,
  ...over,
});

describe('filterTimeline', () => {
  const events = [
    ev({ description: 'Incident created' }),
    ev({ type: 'Custom event', source: 'Incident Participant', description: 'Paged the DB team', owner: 'bob@example.com' }),
    ev({ type: 'Field updated', description: 'Incident status changed from Active to Stable' }),
    ev({ type: null, source: 'Slack', description: 'Imported from chat' }),
  ];

  it('keeps everything without a filter', () => {
    expect(filterTimeline(events, NO_FILTER)).toHaveLength(4);
  });

  it('narrows by kind (a missing type is Other), by source, and both together', () => {
    expect(filterTimeline(events, { ...NO_FILTER, kinds: ['Other'] }).map((e) => e.description)).toEqual(['Incident created', 'Imported from chat']);
    expect(filterTimeline(events, { ...NO_FILTER, sources: ['Slack', 'Incident Participant'] })).toHaveLength(2);
    expect(filterTimeline(events, { ...NO_FILTER, kinds: ['Other'], sources: ['Slack'] }).map((e) => e.description)).toEqual(['Imported from chat']);
  });

  it('matches every word of the text in description, owner or source, in any case', () => {
    expect(filterTimeline(events, { ...NO_FILTER, text: 'db PAGED' }).map((e) => e.description)).toEqual(['Paged the DB team']);
    expect(filterTimeline(events, { ...NO_FILTER, text: 'bob' })).toHaveLength(1);
    expect(filterTimeline(events, { ...NO_FILTER, text: 'slack chat' })).toHaveLength(1);
    expect(filterTimeline(events, { ...NO_FILTER, text: 'db stable' })).toEqual([]);
  });
});

describe('timelineCsv', () => {
  it('writes a header and one row per entry, quoting what needs it', () => {
    const csv = timelineCsv([
      ev({ description: 'Plain' }),
      ev({ type: 'Custom event', owner: null, description: 'Said "stop", then\nstopped' }),
      ev({ type: null, description: '=SUM(A1)' }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'started_at,type,source,owner,description,uuid',
      '2026-11-24T10:00:00Z,Other,Muster Core App,a@example.com,Plain,00000000-0000-4000-8000-000000000001',
      '2026-11-24T10:00:00Z,Custom event,Muster Core App,,"Said ""stop"", then\nstopped",00000000-0000-4000-8000-000000000001',
      "2026-11-24T10:00:00Z,Other,Muster Core App,a@example.com,'=SUM(A1),00000000-0000-4000-8000-000000000001",
      '',
    ]);
  });
});

describe('deep links', () => {
  it('links an entry and reads the entry back from the hash', () => {
    const uuid = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
    const link = eventLink('default', 'dispatch-default-default-3', uuid);
    expect(link).toBe(`/default/incidents/dispatch-default-default-3?tab=timeline#event-${uuid}`);
    expect(eventOfHash(new URL(link, 'http://x').hash)).toBe(uuid);
    expect(eventOfHash('#summary')).toBeNull();
  });
});

describe('the filter in the URL', () => {
  it('writes and reads kinds, sources and words, keeping the other parameters', () => {
    const filter = { kinds: ['Custom event', 'Other'], sources: ['Slack'], text: 'db team', within: 'all' as const };
    const params = paramsWithTimelineFilter(new URLSearchParams('tab=timeline&kind=Old'), filter);
    expect(params.toString()).toBe('tab=timeline&kind=Custom+event&kind=Other&source=Slack&words=db+team');
    expect(timelineFilterFromParams(params)).toEqual(filter);
    expect(paramsWithTimelineFilter(params, NO_FILTER).toString()).toBe('tab=timeline');
    expect(timelineFilterFromParams(new URLSearchParams())).toEqual(NO_FILTER);
  });
});

describe('the time window and the order', () => {
  const now = Date.parse('2026-11-24T10:30:00Z');
  it('keeps the last 10 minutes, or what came since the last update, or all', () => {
    expect(cutoffOf('10m', now, null)).toBe(Date.parse('2026-11-24T10:20:00Z'));
    expect(cutoffOf('update', now, '2026-11-24T09:00:00')).toBe(Date.parse('2026-11-24T09:00:00Z'));
    expect(cutoffOf('update', now, null)).toBe(0);
    expect(cutoffOf('all', now, '2026-11-24T09:00:00Z')).toBe(0);
  });
  it('puts the newest first and keeps the window in the URL', () => {
    const order = newestFirst([ev({ uuid: 'a', started_at: '2026-11-24T10:00:00Z' }), ev({ uuid: 'b', started_at: '2026-11-24T10:05:00Z' })]);
    expect(order.map((e) => e.uuid)).toEqual(['b', 'a']);
    const params = paramsWithTimelineFilter(new URLSearchParams('tab=timeline'), { ...NO_FILTER, within: '10m' });
    expect(params.toString()).toBe('tab=timeline&within=10m');
    expect(timelineFilterFromParams(params).within).toBe('10m');
    expect(timelineFilterFromParams(new URLSearchParams('within=bogus')).within).toBe('all');
  });
});

describe('what people said, and the system noise folded', () => {
  const report = ev({ description: 'Incident tactical report created', details: { conditions: 'Degraded', actions: 'Failing over', needs: '' } });
  const task = ev({ description: 'New incident task created by Ana', details: { task_id: 4, description: 'Page the DB team' } });
  const noise = (n: number) => ev({ uuid: `00000000-0000-4000-8000-00000000010${n}`, type: 'Participant updated', description: `Person ${n} joined` });

  it("shows a report's fields and a task's words", () => {
    expect(contentOf(report)).toEqual([
      ['Conditions', 'Degraded'],
      ['Actions', 'Failing over'],
    ]);
    expect(contentOf(task)).toEqual([['Task', 'Page the DB team']]);
    expect(contentOf(noise(1))).toEqual([]);
  });

  it('folds runs of two or more system entries, never what people wrote, a status change, or the linked entry', () => {
    const status = ev({ type: 'Field updated', description: 'Incident status changed from Active to Stable' });
    const custom = ev({ type: 'Custom event', source: 'Incident Participant', description: 'Paged the DB team' });
    const rows = foldSystem([noise(1), noise(2), noise(3), report, noise(4), status, custom, noise(5), noise(6), task]);
    expect(rows.map((r) => ('system' in r ? r.system.length : r.event.description))).toEqual([
      3,
      'Incident tactical report created',
      'Person 4 joined',
      'Incident status changed from Active to Stable',
      'Paged the DB team',
      2,
      'New incident task created by Ana',
    ]);
    const linked = noise(2).uuid;
    expect(foldSystem([noise(1), noise(2), noise(3)], linked).map((r) => ('system' in r ? r.system.length : r.event.description))).toEqual([
      'Person 1 joined',
      'Person 2 joined',
      'Person 3 joined',
    ]);
  });
});
