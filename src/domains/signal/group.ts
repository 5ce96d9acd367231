// Signal definitions and signal filters: two record groups of the one CRUD mechanism, with what is
// their own: a filter's expression is compiled when saved, a definition keeps its filters in the
// order its body lists them (the order ingestion applies them in), and workflows, which Muster does
// not run yet, cannot be named.
import { inArray, sql } from 'drizzle-orm';
import type { GroupDef, Row } from '../../crud/group.ts';
import { groupReader, shallowReader } from '../../crud/reader.ts';
import { resolveRefs, type RefTarget, type RefValue } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import { readColumns } from '../../db/columns.ts';
import { invalid } from '../../server/errors.ts';
import { casePriorityGroup, casePriorityTarget } from '../case_priority/group.ts';
import { caseTypeGroup, caseTypeTarget } from '../case_type/group.ts';
import { entityTypeGroup, entityTypeTarget } from '../entity_type/group.ts';
import { serviceTarget } from '../service/group.ts';
import { sourceReader, sourceTarget } from '../source/group.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { checkExpression } from './filters.ts';
import {
  SignalCreate,
  SignalFilterCreate,
  SignalFilterPagination,
  SignalFilterRead,
  SignalFilterUpdate,
  SignalPagination,
  SignalRead,
  SignalUpdate,
} from './schema.ts';
import { signal, signalEntityType, signalFilter, signalFilterLink, signalTag } from './table.ts';

export const signalFilterTarget: RefTarget = {
  table: signalFilter,
  model: 'SignalFilter',
  label: 'Signal filter',
  fields: { id: 'int', name: 'text', mode: 'text', action: 'text' },
};

export const signalTarget: RefTarget = {
  table: signal,
  model: 'Signal',
  label: 'Signal',
  fields: { id: 'int', name: 'text', variant: 'text', external_id: 'text', owner: 'text' },
};

export const signalFilterGroup: GroupDef = {
  path: 'signals/filters',
  tags: ['signals'],
  idParam: 'signal_filter_id',
  thing: 'A signal filter',
  model: 'SignalFilter',
  tableName: 'signal_filter',
  table: signalFilter,
  shapes: { create: SignalFilterCreate, update: SignalFilterUpdate, read: SignalFilterRead, pagination: SignalFilterPagination },
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    mode: 'text',
    action: 'text',
    window: 'int',
    expiration: 'timestamp',
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  operations: ['list', 'create', 'update', 'delete'],
  writePermission: { update: 'SensitiveProjectAction', delete: 'SensitiveProjectAction' },
  unique: { signal_filter_project_name_key: 'name' },
  hooks: {
    beforeWrite(_tx, ctx, values, existing) {
      if (!existing) values.creator_id = ctx.user.id;
      // Ingestion runs the expression later: one it cannot run is refused now.
      if (values.expression !== undefined) checkExpression(ctx, values.expression);
    },
  },
};

const filterColumns = readColumns(signalFilter);

/** Each definition's filters, in the order they apply. */
async function nestFilters(db: Executor, items: Record<string, unknown>[]) {
  const ids = items.map((i) => i.id as number);
  const rows = ids.length
    ? await db
        .select({ owner: signalFilterLink.signal_id, ...filterColumns })
        .from(signalFilterLink)
        .innerJoin(signalFilter, sql`${signalFilter.id} = ${signalFilterLink.signal_filter_id}`)
        .where(inArray(signalFilterLink.signal_id, ids))
        .orderBy(signalFilterLink.signal_id, signalFilterLink.position, signalFilter.id)
    : [];
  const byOwner = new Map<number, unknown[]>();
  for (const { owner, ...f } of rows) {
    let list = byOwner.get(owner);
    if (!list) byOwner.set(owner, (list = []));
    list.push(f);
  }
  for (const item of items) {
    item.filters = byOwner.get(item.id as number) ?? [];
    // Workflows are not served yet: a definition names none.
    item.workflows = [];
  }
}

/** The filters a body lists, by id or name in the definition's project, stored with their order. */
async function writeFilters(tx: Executor, ctx: { organization: { id: number } }, row: Row, body: Record<string, unknown>, replace: boolean) {
  const given = body.filters;
  if (!Array.isArray(given)) return;
  const ids = await resolveRefs(tx, signalFilterTarget, given as NonNullable<RefValue>[], ['filters'], ctx.organization.id, row.project_id as number);
  if (replace) await tx.delete(signalFilterLink).where(sql`${signalFilterLink.signal_id} = ${row.id}`);
  const seen = new Set<number>();
  const links = ids.filter((id) => !seen.has(id) && seen.add(id)).map((id, position) => ({ signal_id: row.id, signal_filter_id: id, position }));
  if (links.length) await tx.insert(signalFilterLink).values(links);
}

/** Workflows are not served yet, so none can be named (Dispatch answers an unknown one the same way). */
function refuseWorkflows(body: Record<string, unknown>) {
  const given = body.workflows;
  if (Array.isArray(given) && given.length > 0) throw invalid(['workflows', 0], 'Workflow not found.', 'value_error.not_found');
}

export const signalGroup: GroupDef = {
  path: 'signals',
  tags: ['signals'],
  idParam: 'signal_id',
  thing: 'A signal',
  model: 'Signal',
  tableName: 'signal',
  table: signal,
  shapes: { create: SignalCreate, update: SignalUpdate, read: SignalRead, pagination: SignalPagination },
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    owner: 'text',
    external_id: 'text',
    external_url: 'text',
    variant: 'text',
    enabled: 'bool',
    create_case: 'bool',
    conversation_target: 'text',
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  writePermission: { update: 'SensitiveProjectAction', delete: 'SensitiveProjectAction' },
  refs: {
    case_type: { column: 'case_type_id', target: caseTypeTarget, read: () => groupReader(caseTypeGroup) },
    case_priority: { column: 'case_priority_id', target: casePriorityTarget, read: () => groupReader(casePriorityGroup) },
    oncall_service: { column: 'oncall_service_id', target: serviceTarget, read: () => shallowReader(serviceTarget.table) },
    source: { column: 'source_id', target: sourceTarget, read: sourceReader },
  },
  links: {
    tags: { table: signalTag, ownerColumn: 'signal_id', otherColumn: 'tag_id', target: tagTarget, read: tagReader },
    entity_types: {
      table: signalEntityType,
      ownerColumn: 'signal_id',
      otherColumn: 'entity_type_id',
      target: entityTypeTarget,
      read: () => groupReader(entityTypeGroup),
    },
  },
  hooks: {
    beforeWrite(_tx, _ctx, values) {
      delete values.filters;
      delete values.workflows;
    },
    async afterWrite(tx, ctx, row, body, existing) {
      refuseWorkflows(body);
      await writeFilters(tx, ctx, row, body, !!existing);
    },
    afterRead: nestFilters,
  },
};

/** SignalRead by signal id. */
export const signalReader = () => groupReader(signalGroup, SignalRead);
