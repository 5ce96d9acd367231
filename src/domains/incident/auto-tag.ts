// The auto-tagger (a periodic task): an incident that is not Closed gets the project's
// discoverable tags whose names occur in its title or description as whole words, at most one per
// exclusive tag type (and none of a type it already has a tag of), each change on its timeline.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { Ctx } from '../../server/context.ts';
import { logEvents } from '../event/service.ts';
import { incident } from '../lifecycle/table.ts';
import { tagType } from '../tag_type/table.ts';
import { tag } from '../tag/table.ts';
import { incidentTag } from './table.ts';

/** Tags the project's open incidents; returns how many tags it added. */
export async function autoTagIncidents(db: Executor, ctx: Ctx, projectId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const added = await runStatement<{ incident_id: number; names: string; n: number }>(
      tx,
      sql`WITH found AS (
        SELECT DISTINCT ON (i.id, CASE WHEN tt.exclusive THEN -t.tag_type_id ELSE t.id END) i.id AS incident_id, t.id AS tag_id
        FROM ${incident} i
        JOIN ${tag} t ON t.project_id = i.project_id AND t.discoverable
        LEFT JOIN ${tagType} tt ON tt.id = t.tag_type_id
        WHERE i.project_id = ${projectId} AND i.status <> 'Closed'
          AND (i.title || ' ' || i.description) ~* ('(^|[^[:alnum:]_])' || regexp_replace(t.name, '([][^$.|?*+(){}\\\\-])', '\\\\\\1', 'g') || '($|[^[:alnum:]_])')
          AND NOT EXISTS (SELECT 1 FROM ${incidentTag} it WHERE it.incident_id = i.id AND it.tag_id = t.id)
          AND NOT (COALESCE(tt.exclusive, false) AND EXISTS (
            SELECT 1 FROM ${incidentTag} it JOIN ${tag} t2 ON t2.id = it.tag_id WHERE it.incident_id = i.id AND t2.tag_type_id = t.tag_type_id))
        ORDER BY i.id, CASE WHEN tt.exclusive THEN -t.tag_type_id ELSE t.id END, t.id
      ),
      added AS (
        INSERT INTO ${incidentTag} (incident_id, tag_id) SELECT incident_id, tag_id FROM found ON CONFLICT DO NOTHING RETURNING incident_id, tag_id
      )
      SELECT a.incident_id, string_agg(t.name, ', ' ORDER BY t.name) AS names, count(*)::int AS n
      FROM added a JOIN ${tag} t ON t.id = a.tag_id GROUP BY a.incident_id ORDER BY a.incident_id`,
    );
    await logEvents(
      tx,
      ctx,
      added.map((a) => ({
        record: { incident_id: a.incident_id },
        description: `Incident tags added by the auto-tagger: ${a.names}`,
        type: 'Field updated' as const,
        owner: 'Muster',
        details: { field: 'tags', added: a.names.split(', ') },
      })),
    );
    return added.reduce((sum, a) => sum + a.n, 0);
  });
}
