import { describe, expect, it } from 'vitest';
import { toFilterJson, valuesFromParams } from '../../lib/filters.ts';
import { CASE_FILTERS } from './case-filters.ts';
import { NEW_CASE_DEFAULTS, newCaseBody, newCaseResolver } from './new-case.ts';

describe('cases table filters', () => {
  it('turn URL parameters into the case list engine filter', () => {
    const params = new URLSearchParams(
      'status=New&status=Triage&priority=High&severity=Low&type=Default&project=default&assignee=b@example.com&from=2026-01-01&to=2026-01-31&mine=1&q=laptop&page=2',
    );
    expect(toFilterJson(CASE_FILTERS, valuesFromParams(CASE_FILTERS, params), 'me@example.com')).toEqual({
      and: [
        {
          or: [
            { field: 'status', op: '==', value: 'New' },
            { field: 'status', op: '==', value: 'Triage' },
          ],
        },
        { or: [{ model: 'CasePriority', field: 'name', op: '==', value: 'High' }] },
        { or: [{ model: 'CaseSeverity', field: 'name', op: '==', value: 'Low' }] },
        { or: [{ model: 'CaseType', field: 'name', op: '==', value: 'Default' }] },
        { or: [{ model: 'Project', field: 'name', op: '==', value: 'default' }] },
        { or: [{ model: 'IndividualContact', field: 'email', op: '==', value: 'b@example.com' }] },
        { or: [{ model: 'IndividualContact', field: 'email', op: '==', value: 'me@example.com' }] },
        { or: [{ field: 'reported_at', op: '>=', value: '2026-01-01T00:00:00.000' }] },
        { or: [{ field: 'reported_at', op: '<=', value: '2026-01-31T23:59:59.999' }] },
      ],
    });
  });

  it('leave the text search and paging to the table state', () => {
    expect(toFilterJson(CASE_FILTERS, valuesFromParams(CASE_FILTERS, new URLSearchParams('q=laptop&page=2&sort=title')))).toBeNull();
  });
});

describe('the new case form', () => {
  it('sends only what is filled in, names as references', () => {
    expect(newCaseBody({ ...NEW_CASE_DEFAULTS, title: ' Phish ', case_priority: 'High', assignee: 'b@example.com' })).toEqual({
      title: 'Phish',
      case_priority: { name: 'High' },
      assignee: { individual: { email: 'b@example.com' } },
    });
  });

  it('is checked against the API shape', async () => {
    const empty = await newCaseResolver({ ...NEW_CASE_DEFAULTS }, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(Object.keys(empty.errors)).toEqual(['title']);
    const bad = await newCaseResolver({ ...NEW_CASE_DEFAULTS, title: 'x', assignee: 'not an email' }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(Object.keys(bad.errors)).toContain('assignee');
    const good = await newCaseResolver({ ...NEW_CASE_DEFAULTS, title: 'x' }, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(good.errors).toEqual({});
  });
});
