// The choices modals offer: a project's types, priorities, severities and tags, its projects, as
// the caller may list them through the API (the same list services, so the same rules). Selects
// whose options depend on the project chosen in the modal are external: Slack asks the `menu`
// endpoint for them as the person opens or types in them.
import type { GroupDef } from '../crud/group.ts';
import { listRecords } from '../crud/service.ts';
import { casePriorityGroup } from '../domains/case_priority/group.ts';
import { caseSeverityGroup } from '../domains/case_severity/group.ts';
import { caseTypeGroup } from '../domains/case_type/group.ts';
import { incidentPriorityGroup } from '../domains/incident_priority/group.ts';
import { incidentSeverityGroup } from '../domains/incident_severity/group.ts';
import { incidentTypeGroup } from '../domains/incident_type/group.ts';
import { listProjects } from '../domains/project/service.ts';
import { tagGroup } from '../domains/tag/group.ts';
import type { Ctx } from '../server/context.ts';
import type { ListQueryT } from '../server/shapes.ts';
import type { Option } from './blocks.ts';

const PICKS = {
  incident_type: incidentTypeGroup,
  incident_priority: incidentPriorityGroup,
  incident_severity: incidentSeverityGroup,
  case_type: caseTypeGroup,
  case_priority: casePriorityGroup,
  case_severity: caseSeverityGroup,
  tags: tagGroup,
} satisfies Record<string, GroupDef>;
export type Pick = keyof typeof PICKS;

export const isPick = (id: string): id is Pick => Object.hasOwn(PICKS, id);

/** Slack shows at most 100 options. */
const MAX_OPTIONS = 100;

export const listQuery = (filter: unknown[], sortBy: string[] = []): ListQueryT => ({
  page: 1,
  itemsPerPage: MAX_OPTIONS,
  filter: JSON.stringify(filter),
  'sortBy[]': sortBy,
  'descending[]': sortBy.map(() => false),
});

interface Named {
  id: number;
  name: string;
  enabled?: boolean;
  tag_type?: { name: string } | null;
}

/** The project's records of one kind the caller may pick, their names containing `typed`. */
export async function optionsOf(ctx: Ctx, pick: Pick, projectId: number, typed = ''): Promise<Option[]> {
  const filter: unknown[] = [{ model: 'Project', field: 'id', op: '==', value: projectId }];
  if (typed.trim()) filter.push({ field: 'name', op: 'ilike', value: `%${typed.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
  const page = await listRecords(ctx, PICKS[pick], listQuery(filter, ['name']));
  return (page.items as unknown as Named[])
    .filter((r) => r.enabled !== false)
    .map((r) => ({ text: pick === 'tags' && r.tag_type ? `${r.tag_type.name}/${r.name}` : r.name, value: String(r.id) }));
}

/** The organization's projects; the default one first. */
export async function projectOptions(ctx: Ctx): Promise<{ options: Option[]; initial: Option | undefined }> {
  const page = await listProjects(ctx, listQuery([], ['name']));
  const options = page.items.map((p) => ({ text: p.name, value: String(p.id) }));
  const fallback = page.items.find((p) => p.default) ?? page.items[0];
  return { options, initial: fallback && { text: fallback.name, value: String(fallback.id) } };
}

/** A record a read nests (`{id, name}`), as an option. */
export const optionOf = (r: { id?: number | null; name?: string | null } | null | undefined): Option | undefined =>
  r?.id ? { text: r.name ?? String(r.id), value: String(r.id) } : undefined;

/** A tag as an option: `type/name`, as Dispatch shows tags. */
export const tagOption = (t: { id: number; name?: string | null; tag_type?: { name: string } | null }): Option => ({
  text: t.tag_type ? `${t.tag_type.name}/${t.name}` : (t.name ?? String(t.id)),
  value: String(t.id),
});

/** A body's reference to a record chosen in a modal (none when nothing was chosen). */
export const byId = (id: number | undefined) => (id === undefined ? undefined : { id });
