import type { GroupDef } from '../../crud/group.ts';
import { evergreenFields, startEvergreenClock } from '../document/evergreen.ts';
import { filtersLink } from '../search_filter/group.ts';
import { checkWebhookTarget, webhookTargetsFor } from './webhook-target.ts';
import { NotificationCreate, NotificationPagination, NotificationRead, NotificationUpdate } from './schema.ts';
import { notification, notificationFilter } from './table.ts';

export const notificationGroup: GroupDef = {
  path: 'notifications',
  tags: ['notifications'],
  idParam: 'notification_id',
  thing: 'A notification',
  model: 'Notification',
  tableName: 'notification',
  table: notification,
  shapes: { create: NotificationCreate, update: NotificationUpdate, read: NotificationRead, pagination: NotificationPagination },
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    type: 'text',
    target: 'text',
    enabled: 'bool',
    ...evergreenFields,
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  links: { filters: filtersLink(notificationFilter, 'notification_id') },
  writePermission: 'SensitiveProjectAction',
  unique: { notification_project_name_key: 'name' },
  hooks: {
    async beforeWrite(tx, ctx, values, existing) {
      await startEvergreenClock(tx, ctx, values, existing);
      await checkWebhookTarget(ctx, values, existing);
    },
    afterRead: webhookTargetsFor,
  },
};
