import { describe, expect, it } from 'vitest';
import { toFilterJson } from '../../lib/filters.ts';
import { activeFilterCount, applyView, expressionFrom, expressionOf, INCIDENT_FILTERS, incidentFilter } from './incident-filters.ts';

const ME = 'me@example.com';

describe('incident table filters to the list engine', () => {
  it('writes every filter as the incident list engine names it', () => {
    const values = {
      status: ['Active', 'Stable'],
      priority: ['High'],
      severity: ['Low'],
      type: ['Security'],
      project: ['2'],
      tag: ['7', '9'],
      mine: ['1'],
      participant: ['cmd@corp.example'],
      from: ['2026-10-01'],
      to: ['2026-10-31'],
    };
    expect(toFilterJson(INCIDENT_FILTERS, values, ME)).toEqual({
      and: [
        {
          or: [
            { field: 'status', op: '==', value: 'Active' },
            { field: 'status', op: '==', value: 'Stable' },
          ],
        },
        { or: [{ model: 'IncidentPriority', field: 'name', op: '==', value: 'High' }] },
        { or: [{ model: 'IncidentSeverity', field: 'name', op: '==', value: 'Low' }] },
        { or: [{ model: 'IncidentType', field: 'name', op: '==', value: 'Security' }] },
        { or: [{ model: 'Project', field: 'id', op: '==', value: 2 }] },
        {
          or: [
            { model: 'Tag', field: 'id', op: '==', value: 7 },
            { model: 'Tag', field: 'id', op: '==', value: 9 },
          ],
        },
        { or: [{ model: 'IndividualContact', field: 'email', op: '==', value: ME }] },
        { or: [{ model: 'IndividualContact', field: 'email', op: '==', value: 'cmd@corp.example' }] },
        { or: [{ field: 'reported_at', op: '>=', value: '2026-10-01T00:00:00.000' }] },
        { or: [{ field: 'reported_at', op: '<=', value: '2026-10-31T23:59:59.999' }] },
      ],
    });
    expect(activeFilterCount(values, null)).toBe(10);
  });

  it('reads a saved view written by the controls back into values, "mine" included', () => {
    const values = { status: ['Closed'], mine: ['1'], participant: ['other@corp.example'], project: ['3'] };
    const saved = expressionOf(incidentFilter(values, ME, null));
    expect(saved).toHaveLength(1);
    expect(applyView(saved, ME)).toEqual({ values, expression: null });
    expect(applyView([], ME)).toEqual({ values: {}, expression: null });
  });

  it('applies a view of another shape as its expression, AND-ed with the chosen values', () => {
    const foreign = [{ field: 'status', op: '!=', value: 'Closed' }, { not: [{ field: 'resolution', op: 'is_null' }] }];
    const applied = applyView(foreign, ME);
    expect(applied).toEqual({ values: {}, expression: foreign });
    expect(incidentFilter({}, ME, applied.expression)).toEqual(foreign);
    expect(incidentFilter({ status: ['Active'] }, ME, applied.expression)).toEqual([
      ...foreign,
      { and: [{ or: [{ field: 'status', op: '==', value: 'Active' }] }] },
    ]);
    expect(activeFilterCount({}, applied.expression)).toBe(1);
  });

  it('keeps the expression in the URL as JSON, ignoring what is not', () => {
    expect(expressionFrom(new URLSearchParams(`expr=${encodeURIComponent('[{"field":"status","value":"Active"}]')}`))).toEqual([
      { field: 'status', value: 'Active' },
    ]);
    expect(expressionFrom(new URLSearchParams('expr={"field":"status","value":"Active"}'))).toEqual([{ field: 'status', value: 'Active' }]);
    expect(expressionFrom(new URLSearchParams('expr=not json'))).toBeNull();
    expect(expressionFrom(new URLSearchParams(''))).toBeNull();
  });

  it('sends nothing when nothing is chosen, and "mine" only once the email is known', () => {
    expect(incidentFilter({}, ME, null)).toBeNull();
    expect(incidentFilter({ mine: ['1'] }, undefined, null)).toBeNull();
    expect(expressionOf(null)).toEqual([]);
  });
});
