// Every project has an instance of each plugin in the catalogue (domains/plugin/catalogue.ts): a new
// project gets them when it is seeded (seed.ts), every project gets one of a plugin newly installed.
// A disabled instance (BEHAVIOR §5.3), except that Muster's own plugins that need nothing outside it
// start enabled, so a fresh install names, links and routes out of the box.
import { sql, type SQL } from 'drizzle-orm';
import { BUILTIN_PLUGINS } from '../../plugins/registry.ts';
import { plugin, pluginInstance } from '../plugin/table.ts';
import { project } from './table.ts';

/** Slugs of the plugins a new project starts with enabled: built-ins that reach nothing outside. */
const ENABLED_BY_DEFAULT = BUILTIN_PLUGINS.filter((p) => p.enabledByDefault).map((p) => p.slug);

/**
 * The statement that gives a project (or every project, when `projectId` is absent) an instance of
 * each catalogue plugin it lacks; enabled for the default-enabled ones unless the project already
 * has an enabled instance of that type.
 */
export function seedInstances(projectId?: number | SQL, organizationId?: number | SQL, onlyPluginIds?: number[]): SQL {
  const projects =
    projectId === undefined ? sql`SELECT id, organization_id FROM ${project}` : sql`SELECT ${projectId}::int AS id, ${organizationId}::int AS organization_id`;
  const only = onlyPluginIds ? sql`AND p.id = ANY(${sql.param(onlyPluginIds)}::int[])` : sql``;
  return sql`INSERT INTO ${pluginInstance} (organization_id, project_id, plugin_id, plugin_type, enabled)
    SELECT pr.organization_id, pr.id, p.id, p.type,
      p.slug = ANY(${sql.param(ENABLED_BY_DEFAULT)}::text[])
        AND NOT EXISTS (SELECT 1 FROM ${pluginInstance} e WHERE e.project_id = pr.id AND e.plugin_type = p.type AND e.enabled)
    FROM (${projects}) pr CROSS JOIN ${plugin} p
    WHERE NOT EXISTS (SELECT 1 FROM ${pluginInstance} i WHERE i.project_id = pr.id AND i.plugin_id = p.id) ${only}`;
}
