import { describe, expect, it } from 'vitest';
import { transitionsFrom, updateBody } from './transitions.ts';
import type { Case } from './types.ts';

const offered = (status: Parameters<typeof transitionsFrom>[0], hasIncident = false) =>
  transitionsFrom(status, { hasIncident }).map((t) => `${t.direction} ${t.to} ${t.via} "${t.label}"`);

describe('case status moves offered from each status', () => {
  it('offers every other status, the way forward first', () => {
    expect(offered('New')).toEqual([
      'forward Triage update "Triage"',
      'forward Escalated escalate "Escalate"',
      'forward Stable update "Mark stable"',
      'forward Closed close "Close"',
    ]);
    expect(offered('Triage')).toEqual([
      'forward Escalated escalate "Escalate"',
      'forward Stable update "Mark stable"',
      'forward Closed close "Close"',
      'back New update "Back to New"',
    ]);
    expect(offered('Escalated', true)).toEqual([
      'forward Stable update "Mark stable"',
      'forward Closed close "Close"',
      'back New update "Back to New"',
      'back Triage update "Back to Triage"',
    ]);
    expect(offered('Stable', true)).toEqual([
      'forward Closed close "Close"',
      'back New update "Back to New"',
      'back Triage update "Back to Triage"',
      'back Escalated update "Back to Escalated"',
    ]);
  });

  it('reopens a closed case to any other status', () => {
    expect(offered('Closed', true)).toEqual([
      'back New update "Reopen as New"',
      'back Triage update "Reopen as Triage"',
      'back Escalated update "Reopen as Escalated"',
      'back Stable update "Reopen as Stable"',
    ]);
  });

  it('escalates through the incident form only while no incident is linked', () => {
    expect(transitionsFrom('Stable', { hasIncident: false }).find((t) => t.to === 'Escalated')?.via).toBe('escalate');
    expect(transitionsFrom('Stable', { hasIncident: true }).find((t) => t.to === 'Escalated')?.via).toBe('update');
    expect(transitionsFrom(null, { hasIncident: false })[0].to).toBe('Triage');
  });
});

describe('the update body', () => {
  const c: Case = {
    id: 7,
    title: 'Laptop stolen',
    description: 'At the station',
    status: 'New',
    visibility: 'Open',
    resolution: 'r',
    case_type: { id: 1, name: 'Default' },
    case_priority: { id: 2, name: 'Low' },
    case_severity: { id: 3, name: 'Undetermined' },
    assignee: { id: 1, individual: { email: 'a@example.com' } },
    tags: [{ id: 4, name: 't' }],
    related: [{ id: 8, title: 'x' }],
    duplicates: [],
    incidents: [{ id: 9 }],
  };

  it('carries every link the case has, so that an update does not clear them', () => {
    expect(updateBody(c, { status: 'Triage' })).toEqual({
      title: 'Laptop stolen',
      description: 'At the station',
      status: 'Triage',
      visibility: 'Open',
      resolution: 'r',
      case_type: { name: 'Default' },
      case_priority: { name: 'Low' },
      case_severity: { name: 'Undetermined' },
      tags: [{ id: 4 }],
      related: [{ id: 8 }],
      duplicates: [],
      incidents: [{ id: 9 }],
      assignee: { individual: { email: 'a@example.com' } },
    });
  });

  it('replaces what is changed', () => {
    const body = updateBody(c, { related: [], duplicates: [8], assignee: 'b@example.com', case_priority: 'High', resolution_reason: 'Mitigated' });
    expect(body).toMatchObject({
      related: [],
      duplicates: [{ id: 8 }],
      assignee: { individual: { email: 'b@example.com' } },
      case_priority: { name: 'High' },
      resolution_reason: 'Mitigated',
    });
    expect(body).not.toHaveProperty('reporter');
  });

  it('sends the reporter only when it changes', () => {
    expect(updateBody(c, { reporter: 'w@example.com' })).toMatchObject({ reporter: { individual: { email: 'w@example.com' } } });
  });
});
