import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { AlertCreate, AlertPagination, AlertRead, AlertUpdate } from './schema.ts';
import { alert } from './table.ts';

/** Alerts named in a source's body (by id or name), within the organization. */
export const alertTarget: RefTarget = { table: alert, model: 'Alert', label: 'Alert', projectScoped: false };

export const alertGroup: GroupDef = {
  path: 'data/alerts',
  tags: ['alerts'],
  idParam: 'alert_id',
  thing: 'An alert',
  model: 'Alert',
  tableName: 'alert',
  table: alert,
  shapes: { create: AlertCreate, update: AlertUpdate, read: AlertRead, pagination: AlertPagination },
  fields: { id: 'int', name: 'text', description: 'text', external_link: 'text', originator: 'text', created_at: 'timestamp' },
  operations: ['create', 'get', 'update', 'delete'],
  projectScoped: false,
};
