// The statement of every declared read, kept in src/queries: a change to what a read selects, nests
// or narrows shows as a change to these files, reviewed with the code that made it. Run with `-u`
// to write them anew after a deliberate change.
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { compileRead, declaredReads } from './reader.ts';

let t: TestApp;
beforeAll(async () => {
  // Building the app registers every group, and imports every module that declares a read.
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the statements of the reads', () => {
  it('are those kept in src/queries', async () => {
    expect(declaredReads.size).toBeGreaterThan(30);
    const failures: string[] = [];
    // Compiling a read declares the reads of the records it reads apart: until none is new.
    const done = new Set<string>();
    for (let next = [...declaredReads]; next.length; next = [...declaredReads].filter(([name]) => !done.has(name)))
      for (const [name, { def, shape }] of next) {
        done.add(name);
        // A Member's read of rows it has not yet found visible: the other kinds of reader and scope
        // differ from it only in the terms of the visibility rules and in the top WHERE.
        let text: string;
        try {
          text = `-- ${name}: member, visible\n${compileRead(def, shape, 'member', 'visible').text(t.database.db)};\n`;
        } catch (err) {
          failures.push(`${name}: ${(err as Error).message}`);
          continue;
        }
        await expect(text).toMatchFileSnapshot(`../queries/${name}.sql`);
      }
    expect(failures).toEqual([]);
    // A file no declared read writes any more is a statement that no longer runs.
    const dir = new URL('../queries/', import.meta.url);
    const kept = (existsSync(dir) ? readdirSync(dir) : []).map((f) => f.replace(/\.sql$/, ''));
    expect(kept.filter((name) => !done.has(name))).toEqual([]);
  });
});
