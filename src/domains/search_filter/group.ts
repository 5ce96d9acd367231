import { getTableName, sql } from 'drizzle-orm';
import { alias, type PgTable } from 'drizzle-orm/pg-core';
import { column, type GroupDef, type LinkField, type Row } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { groupReader, type OwnField, type ReadDef } from '../../crud/reader.ts';
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
const creator: OwnField = (at) =>
  sql`(SELECT json_build_object('id', u."id", 'email', u."email", 'organizations', '[]'::json, 'projects', '[]'::json, 'role', NULL) FROM ${appUser} u WHERE u."id" = ${column(at, 'creator_id')})`;

/** Beyond 0.1.0, for the web UI's search filters page: the records whose `filters` name the filter (link table, owner column, table). */
const routedBy =
  (link: PgTable, owner: string, table: PgTable): OwnField =>
  (at, read, shape) =>
    read.list({ table }, table, shape, (t) => {
      const l = alias(link, `${getTableName(link)}_of`);
      return {
        from: sql`${read.from(l, link)} JOIN ${read.from(t, table)} ON ${column(t, 'id')} = ${column(l, owner)}`,
        where: sql`${column(l, 'search_filter_id')} = ${column(at, 'id')}`,
        order: sql`${column(t, 'id')}`,
      };
    });

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
  },
  own: {
    creator,
    individuals: routedBy(individualContactFilter, 'individual_contact_id', individualContact),
    teams: routedBy(teamContactFilter, 'team_contact_id', teamContact),
    services: routedBy(serviceFilter, 'service_id', service),
    notifications: routedBy(notificationFilter, 'notification_id', notification),
  },
};

/** A filter nested in a record it routes: its creator, not the records it routes. */
const nestedFilterDef: ReadDef = { table: searchFilter, own: { creator } };

/** The `filters` field of a record routed by search filters, through its link table. */
export const filtersLink = (table: PgTable, ownerColumn: string): LinkField => ({
  table,
  ownerColumn,
  otherColumn: 'search_filter_id',
  target: searchFilterTarget,
  read: () => groupReader(nestedFilterDef),
});
