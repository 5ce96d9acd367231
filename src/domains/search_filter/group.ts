import { eq, inArray } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { column, type GroupDef, type LinkField, type Row } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { groupReader, type ReadDef } from '../../crud/reader.ts';
import type { Executor } from '../../db/connection.ts';
import { checkFilter } from '../../list/filter.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { appUser } from '../auth/table.ts';
import { individualContact, individualContactFilter } from '../individual/table.ts';
import { notification, notificationFilter } from '../notification/table.ts';
import { service, serviceFilter } from '../service/table.ts';
import { teamContact, teamContactFilter } from '../team/table.ts';
import { SearchFilterCreate, SearchFilterPagination, SearchFilterReadRouted, SearchFilterUpdate } from './schema.ts';
import { searchFilter } from './table.ts';

export const searchFilterTarget: RefTarget = {
  table: searchFilter,
  model: 'SearchFilter',
  label: 'Search filter',
  fields: { id: 'int', name: 'text', subject: 'text' },
};

// Anyone may save a filter; only its creator or an Admin and above may change or remove it.
function requireCreatorOrAdmin(ctx: Ctx, existing: Row) {
  if (existing.creator_id !== ctx.user.id && !atLeast(ctx.role, 'Admin')) throw errors.forbidden();
}

/** The creator as a user read object; memberships are not part of a filter's read. */
async function nestCreators(db: Executor, items: Record<string, unknown>[]) {
  const ids = [...new Set(items.map((i) => i.creator_id).filter((v): v is number => typeof v === 'number'))];
  const users = ids.length ? await db.select({ id: appUser.id, email: appUser.email }).from(appUser).where(inArray(appUser.id, ids)) : [];
  const byId = new Map(users.map((u) => [u.id, { ...u, organizations: [], projects: [], role: null }]));
  for (const item of items) item.creator = byId.get(item.creator_id as number) ?? null;
}

/** The records routed by a filter: a link table to them and what a filter's read shows of each. */
const routed: { field: string; link: PgTable; owner: string; table: PgTable; show: string[] }[] = [
  { field: 'individuals', link: individualContactFilter, owner: 'individual_contact_id', table: individualContact, show: ['id', 'name', 'email'] },
  { field: 'teams', link: teamContactFilter, owner: 'team_contact_id', table: teamContact, show: ['id', 'name'] },
  { field: 'services', link: serviceFilter, owner: 'service_id', table: service, show: ['id', 'name'] },
  { field: 'notifications', link: notificationFilter, owner: 'notification_id', table: notification, show: ['id', 'name'] },
];

/**
 * Beyond 0.1.0, for the web UI's search filters page: the individuals, teams, services and
 * notifications whose `filters` name each filter. One query after the other: a write's transaction
 * takes one at a time.
 */
async function nestRouted(db: Executor, items: Record<string, unknown>[]) {
  const ids = items.map((i) => i.id as number);
  for (const { field, link, owner, table, show } of routed) {
    const rows = await db
      .select({ __filter: column(link, 'search_filter_id'), ...Object.fromEntries(show.map((c) => [c, column(table, c)])) })
      .from(link)
      .innerJoin(table, eq(column(table, 'id'), column(link, owner)))
      .where(inArray(column(link, 'search_filter_id'), ids))
      .orderBy(column(table, 'id'));
    const byFilter = new Map<unknown, Record<string, unknown>[]>();
    for (const { __filter: filter, ...record } of rows) {
      const list = byFilter.get(filter);
      if (list) list.push(record);
      else byFilter.set(filter, [record]);
    }
    for (const item of items) item[field] = byFilter.get(item.id) ?? [];
  }
}

export const searchFilterGroup: GroupDef = {
  path: 'search/filters',
  tags: ['search_filters'],
  idParam: 'search_filter_id',
  thing: 'A search filter',
  model: 'SearchFilter',
  tableName: 'search_filter',
  table: searchFilter,
  shapes: { create: SearchFilterCreate, update: SearchFilterUpdate, read: SearchFilterReadRouted, pagination: SearchFilterPagination },
  fields: { id: 'int', name: 'text', description: 'text', subject: 'text', created_at: 'timestamp', updated_at: 'timestamp' },
  operations: ['list', 'create', 'update', 'delete'],
  unique: { search_filter_project_name_key: 'name' },
  hooks: {
    beforeWrite(_tx, ctx, values, existing) {
      if (existing) requireCreatorOrAdmin(ctx, existing);
      else values.creator_id = ctx.user.id;
      // Incidents and cases apply the spec later: a malformed one must not be saved.
      if (values.expression !== undefined) checkFilter(values.expression, ['expression']);
    },
    beforeDelete: (_tx, ctx, existing) => requireCreatorOrAdmin(ctx, existing),
    afterRead: async (db, items) => {
      await nestCreators(db, items);
      await nestRouted(db, items);
    },
  },
};

/** A filter nested in a record it routes: its creator, not the records it routes. */
const nestedFilterDef: ReadDef = { table: searchFilter, hooks: { afterRead: nestCreators } };

/** The `filters` field of a record routed by search filters, through its link table. */
export const filtersLink = (table: PgTable, ownerColumn: string): LinkField => ({
  table,
  ownerColumn,
  otherColumn: 'search_filter_id',
  target: searchFilterTarget,
  read: () => groupReader(nestedFilterDef),
});
