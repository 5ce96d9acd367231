import { Type, type TObject } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Opt } from '../server/shapes.ts';
import { projection, within } from './projection.ts';

const Project = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() });
const Priority = Type.Object({ id: Type.Integer(), name: Type.String(), project: Project });
const Read = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  priority: Priority,
  commander: Opt(Type.Object({ id: Type.Integer(), individual: Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.String() }) })),
  tags: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});
const props = (shape: unknown) => (shape as TObject).properties;

describe('projection', () => {
  it('keeps top fields whole and id always', () => {
    const cut = projection(Read, ['title', 'priority'], 'Cut');
    expect(Object.keys(props(cut))).toEqual(['id', 'title', 'priority']);
    expect(props(cut).priority).toBe(Read.properties.priority);
    expect(cut.required).toEqual(['id', 'title', 'priority']);
  });

  it('cuts nested objects to the paths into them, keeping their modifiers', () => {
    const cut = projection(Read, ['priority.name', 'commander.individual.email'], 'Cut');
    expect(Object.keys(props(props(cut).priority))).toEqual(['name']);
    const commander = props(cut).commander as TObject & { nullable?: boolean };
    expect(commander.nullable).toBe(true);
    expect(cut.required).toEqual(['id', 'priority']);
    expect(Object.keys(props(commander))).toEqual(['individual']);
    expect(Object.keys(props(props(commander).individual))).toEqual(['email']);
    expect((props(commander).individual as TObject).required).toEqual(['email']);
    // The shapes it was cut from are left as they were.
    expect(Object.keys(Read.properties.priority.properties)).toEqual(['id', 'name', 'project']);
  });

  it('refuses a path into a field that is not an object', () => {
    expect(() => projection(Read, ['title.length'], 'Cut')).toThrow(/title is not an object/);
    expect(() => projection(Read, ['tags.name'], 'Cut')).toThrow(/tags is not an object/);
  });
});

describe('within', () => {
  const fields = ['title', 'tags', 'priority.name', 'commander.individual.email'];
  it('accepts paths that are fields, or lie within one', () => {
    expect(within(['id', 'title', 'priority.name', 'commander.individual.email'], fields)).toBe(true);
    expect(within(['tags[].name', 'tags.id', ''], fields)).toBe(true);
  });
  it('refuses a path above a cut, beside it, or outside every field', () => {
    expect(within(['priority'], fields)).toBe(false);
    expect(within(['priority.project.name'], fields)).toBe(false);
    expect(within(['commander.individual'], fields)).toBe(false);
    expect(within(['status'], fields)).toBe(false);
    expect(within(['__proto__'], fields)).toBe(false);
  });
});
