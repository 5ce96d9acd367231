import { describe, expect, it } from 'vitest';
import { folderOf, problems } from '../lint/folder-cycles.ts';

const imp = (from: string, to: string) => ({ from, to });

describe('the order between folders', () => {
  it('takes each domain, each other folder of src/ and each file directly in src/ as one folder', () => {
    expect(folderOf('src/domains/case/flows.ts')).toBe('src/domains/case/');
    expect(folderOf('src/crud/service.ts')).toBe('src/crud/');
    expect(folderOf('src/plugins/builtin/slack/plugin.ts')).toBe('src/plugins/');
    expect(folderOf('src/config.ts')).toBe('src/config.ts');
  });

  it('names the folders of a circle and one import per step, though no two files import each other', () => {
    const found = problems(
      [
        imp('src/domains/a/service.ts', 'src/domains/b/service.ts'),
        imp('src/domains/b/other.ts', 'src/domains/c/flows.ts'),
        imp('src/domains/c/flows.ts', 'src/domains/a/kind.ts'),
        imp('src/domains/c/flows.ts', 'src/lib/slug.ts'),
      ],
      [],
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('src/domains/a/ -> src/domains/b/ -> src/domains/c/ -> src/domains/a/');
    expect(found[0]).toContain('src/domains/a/service.ts imports src/domains/b/service.ts');
    expect(found[0]).toContain('src/domains/b/other.ts imports src/domains/c/flows.ts');
    expect(found[0]).toContain('src/domains/c/flows.ts imports src/domains/a/kind.ts');
    expect(found[0]).not.toContain('lib');
  });

  it("does not count imports of a domain's shapes, tables and target", () => {
    const imports = [imp('src/domains/a/service.ts', 'src/domains/b/service.ts'), imp('src/domains/b/service.ts', 'src/domains/a/table.ts')];
    expect(problems(imports, [])).toEqual([]);
    expect(problems([...imports, imp('src/domains/b/group.ts', 'src/domains/a/target.ts')], [])).toEqual([]);
    expect(problems([...imports, imp('src/domains/b/service.ts', 'src/domains/a/kind.ts')], [])).toHaveLength(1);
  });

  it('allows a listed import only while it exists and closes a circle', () => {
    const back = { ...imp('src/domains/b/reader.ts', 'src/domains/a/reader.ts'), why: 'for now' };
    const down = imp('src/domains/a/service.ts', 'src/domains/b/service.ts');
    expect(problems([down, imp(back.from, back.to)], [back])).toEqual([]);
    expect(problems([down], [back])).toEqual([`The allowed import ${back.from} -> ${back.to} is gone: remove it from the allowlist.`]);
    expect(problems([imp(back.from, back.to)], [back])).toEqual([
      `The allowed import ${back.from} -> ${back.to} no longer closes a circle: remove it from the allowlist.`,
    ]);
    // Another import along the same allowed step is not allowed.
    expect(problems([down, imp(back.from, back.to), imp('src/domains/b/service.ts', 'src/domains/a/kind.ts')], [back])).toHaveLength(1);
  });
});
