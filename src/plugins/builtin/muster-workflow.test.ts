// The revision that gave generic-workflow Dispatch's protocol: instances an installation made
// before it (Muster's own protocol, `{url, auth_header}`) become muster-workflow instances with the
// same ids and configuration, and their projects get a fresh, disabled generic-workflow instance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openEmbedded } from '../../db/connection.ts';
import { downgrade, upgrade } from '../../db/migrate.ts';

/** The revision before it. */
const BEFORE = '850c7bedda24';

let db: Database;
beforeAll(async () => {
  db = await openEmbedded(undefined);
  await upgrade(db, BEFORE);
});
afterAll(() => db?.close());

const instances = () =>
  db.query<{ id: number; slug: string; enabled: boolean; configuration: string | null }>(
    'SELECT i.id, p.slug, i.enabled, i.configuration FROM plugin_instance i JOIN plugin p ON p.id = i.plugin_id ORDER BY i.id',
  );

it("moves the instances of Muster's own protocol to muster-workflow, and back on downgrade", async () => {
  await db.query(`INSERT INTO organization (id, name, slug) VALUES (1, 'default', 'default')`);
  await db.query(`INSERT INTO project (id, organization_id, name, slug) VALUES (1, 1, 'default', 'default'), (2, 1, 'other', 'other')`);
  await db.query(
    `INSERT INTO plugin (id, slug, title, type, version, author) VALUES (1, 'generic-workflow', 'Generic Workflow Plugin - Workflow Management', 'workflow', '0.1.0', 'Muster'), (2, 'muster-ticket', 'Ticket', 'ticket', '0.1.0', 'Muster')`,
  );
  await db.query(`INSERT INTO plugin_offered (slug) VALUES ('generic-workflow'), ('muster-ticket')`);
  await db.query(
    `INSERT INTO plugin_instance (id, organization_id, project_id, plugin_id, plugin_type, enabled, configuration) VALUES
      (1, 1, 1, 1, 'workflow', true, 'v1:sealed'), (2, 1, 1, 2, 'ticket', true, NULL), (3, 1, 2, 1, 'workflow', false, NULL)`,
  );
  await db.query(`SELECT setval('plugin_instance_id_seq', 3)`);
  await db.query(`SELECT setval('plugin_id_seq', 2)`);

  await upgrade(db, 'heads');
  expect(await instances()).toEqual([
    { id: 1, slug: 'muster-workflow', enabled: true, configuration: 'v1:sealed' },
    { id: 2, slug: 'muster-ticket', enabled: true, configuration: null },
    { id: 3, slug: 'muster-workflow', enabled: false, configuration: null },
    { id: 4, slug: 'generic-workflow', enabled: false, configuration: null },
    { id: 5, slug: 'generic-workflow', enabled: false, configuration: null },
  ]);
  expect((await db.query<{ slug: string }>('SELECT slug FROM plugin_offered ORDER BY slug')).map((r) => r.slug)).toEqual([
    'generic-workflow',
    'muster-ticket',
    'muster-workflow',
  ]);

  await downgrade(db, BEFORE);
  expect(await instances()).toEqual([
    { id: 1, slug: 'generic-workflow', enabled: true, configuration: 'v1:sealed' },
    { id: 2, slug: 'muster-ticket', enabled: true, configuration: null },
    { id: 3, slug: 'generic-workflow', enabled: false, configuration: null },
  ]);
});
