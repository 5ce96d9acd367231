import { describe, expect, it } from 'vitest';
import { applyInclude } from './include.ts';

const item = {
  id: 1,
  name: 'Breach',
  project: { id: 2, name: 'sec', color: null },
  tags: [
    { id: 3, name: 'aws', tag_type: { name: 'cloud' } },
    { id: 4, name: 'gcp', tag_type: { name: 'cloud' } },
  ],
};

describe('include[]', () => {
  it('keeps only the listed paths, nesting and mapping over lists', () => {
    expect(applyInclude([item], ['id', 'project.name', 'tags[].tag_type.name'])).toEqual([
      { id: 1, project: { name: 'sec' }, tags: [{ tag_type: { name: 'cloud' } }, { tag_type: { name: 'cloud' } }] },
    ]);
  });
  it('lets a later path with the same first segment overwrite an earlier one, as Dispatch does', () => {
    expect(applyInclude([item], ['project.id', 'project.name'])).toEqual([{ project: { name: 'sec' } }]);
  });
  it('returns items unchanged without include[] and skips unknown fields', () => {
    expect(applyInclude([item], [])).toEqual([item]);
    expect(applyInclude([{ ...item }], ['nope', 'name'])).toEqual([{ name: 'Breach' }]);
  });
  it('cuts items to top fields in place: the fields left out read undefined, which the serializer leaves out', () => {
    const own = { ...item, project: { ...item.project } };
    const [cut] = applyInclude([own], ['name', 'project', 'nope']);
    expect(cut).toBe(own);
    expect(Object.entries(cut).filter(([, v]) => v !== undefined)).toEqual([
      ['name', 'Breach'],
      ['project', item.project],
    ]);
    expect(JSON.stringify(cut)).toBe('{"name":"Breach","project":{"id":2,"name":"sec","color":null}}');
  });
  it('reaches own fields only: __proto__ and constructor are no fields', () => {
    const out = applyInclude([item], ['__proto__.polluted', 'constructor.name', 'name.length', 'name']);
    expect(out).toEqual([{ name: 'Breach' }]);
    expect(Object.getPrototypeOf(out[0])).toBe(Object.prototype);
  });
});
