import { describe, expect, it } from 'vitest';
import { listQuery } from '../../api/list.ts';
import { filterBody } from './filter-body.ts';
import { FieldProblem } from './form-body.ts';
import { markMatches, parseExpression, previewRequests, withCondition } from './preview.ts';

const onHost = { model: 'Entity', field: 'value', op: '==', value: 'db-1' };

describe('expression preview', () => {
  it('reads the editor text as a list of conditions, saying what is wrong otherwise', () => {
    expect(parseExpression('')).toEqual({ ok: true, expression: [] });
    expect(parseExpression(JSON.stringify([onHost]))).toEqual({ ok: true, expression: [onHost] });
    expect(parseExpression('[{"field": ')).toMatchObject({ ok: false, error: expect.stringMatching(/^Not JSON/) });
    expect(parseExpression(JSON.stringify(onHost))).toMatchObject({ ok: false, error: expect.stringMatching(/JSON list/) });
    expect(parseExpression('[1]')).toMatchObject({ ok: false, error: expect.stringMatching(/object/) });
  });

  it('asks the instance list for the project’s newest instances, and for those the expression matches among them', () => {
    const { recent, matching } = previewRequests([onHost], 3, 25);
    expect(listQuery(recent)).toMatchObject({
      page: 1,
      itemsPerPage: 25,
      'sortBy[]': 'created_at',
      'descending[]': 'true',
      filter: JSON.stringify([{ field: 'project_id', op: '==', value: 3 }]),
    });
    // The expression as ingestion runs it, its conditions and the project's AND-ed in one list.
    expect(JSON.parse(String(listQuery(matching).filter))).toEqual([onHost, { field: 'project_id', op: '==', value: 3 }]);
    expect(listQuery(matching)['sortBy[]']).toBe('created_at');
    // An empty expression matches every instance of the project.
    expect(JSON.parse(String(listQuery(previewRequests([], 3, 25).matching).filter))).toEqual([{ field: 'project_id', op: '==', value: 3 }]);
  });

  it('marks the recent instances the matching list holds', () => {
    const recent = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(markMatches(recent, [{ id: 'c' }, { id: 'a' }, { id: 'z' }]).map((r) => [r.instance.id, r.matches])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
  });

  it('inserts a condition into the list as it is', () => {
    expect(JSON.parse(withCondition('[]', onHost))).toEqual([onHost]);
    expect(withCondition('not json', onHost)).toBe('not json');
  });

  it('sends the expression the editor holds, and refuses text that is not one', () => {
    const values = {
      name: 'Quiet db',
      description: '',
      project: { id: 3, name: 'default' },
      action: 'snooze',
      mode: 'active',
      window: '600',
      expiration: '2030-01-02T03:04',
      expression: JSON.stringify([onHost]),
    } as const;
    expect(filterBody(values)).toEqual({
      name: 'Quiet db',
      expression: [onHost],
      action: 'snooze',
      mode: 'active',
      window: 600,
      expiration: '2030-01-02T03:04:00.000Z',
      project: { id: 3 },
    });
    expect(filterBody({ ...values, expiration: '' }, 9)).toMatchObject({ id: 9, description: null, expiration: null });
    expect(() => filterBody({ ...values, expression: '{' })).toThrow(FieldProblem);
  });
});
