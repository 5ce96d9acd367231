import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { applyInclude, includedShape } from './include.ts';

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
    expect(applyInclude([item], ['nope', 'name'])).toEqual([{ name: 'Breach' }]);
  });
  it('reaches own fields only: __proto__ and constructor are no fields', () => {
    const out = applyInclude([item], ['__proto__.polluted', 'constructor.name', 'name.length', 'name']);
    expect(out).toEqual([{ name: 'Breach' }]);
    expect(Object.getPrototypeOf(out[0])).toBe(Object.prototype);
  });
});

describe('includedShape', () => {
  const Item = Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    tags: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
    commander: Type.Object({ individual: Type.Object({ email: Type.String() }) }, { nullable: true }),
  });
  const props = (s: unknown) => Object.keys((s as { properties: object }).properties);

  it('cuts as applyInclude cuts, in the shape’s order, the last path of a field winning', () => {
    const cut = includedShape(Item, ['title', 'tags[].name', 'id', 'commander.individual.email', 'nosuch']) as any;
    expect(props(cut)).toEqual(['id', 'title', 'tags', 'commander']);
    expect(props(cut.properties.tags.items)).toEqual(['name']);
    expect(props(cut.properties.commander.properties.individual)).toEqual(['email']);
    expect(cut.properties.commander.nullable).toBe(true);
    expect(props(includedShape(Item, ['tags[].name', 'tags']))).toEqual(['tags']);
    // Through a list without [], or into a scalar: only applyInclude says what that keeps.
    expect(includedShape(Item, ['tags.name'])).toBeNull();
    expect(includedShape(Item, ['title.length'])).toBeNull();
  });

  it('makes at most 64 cut shapes of one item shape; a new set of paths past them is left to applyInclude', () => {
    const Other = Type.Object({ id: Type.Integer(), title: Type.String() });
    const first = includedShape(Other, ['id']);
    for (let i = 0; i < 70; i++) includedShape(Other, ['id', `x${i}`]);
    expect(includedShape(Other, ['title'])).toBeNull();
    expect(includedShape(Other, ['id'])).toBe(first);
  });
});
