// Signal engagements on the CRUD mechanism (beyond 0.1.0, for the web UI's signal definitions page):
// any member may create one, Admins and above change or remove it, as signal filters.
import { nullMeansDefault, type GroupDef } from '../../crud/group.ts';
import { groupReader } from '../../crud/reader.ts';
import { entityTypeGroup, entityTypeTarget } from '../entity_type/group.ts';
import { SignalEngagementCreate, SignalEngagementPagination, SignalEngagementRead, SignalEngagementUpdate } from './schema.ts';
import { signalEngagement } from './table.ts';

export const signalEngagementGroup: GroupDef = {
  path: 'signals/engagements',
  tags: ['signals'],
  idParam: 'engagement_id',
  thing: 'A signal engagement',
  model: 'SignalEngagement',
  tableName: 'signal_engagement',
  table: signalEngagement,
  shapes: { create: SignalEngagementCreate, update: SignalEngagementUpdate, read: SignalEngagementRead, pagination: SignalEngagementPagination },
  fields: { id: 'int', name: 'text', description: 'text', require_mfa: 'bool', message: 'text', created_at: 'timestamp', updated_at: 'timestamp' },
  writePermission: { update: 'SensitiveProjectAction', delete: 'SensitiveProjectAction' },
  refs: { entity_type: { column: 'entity_type_id', target: entityTypeTarget, read: () => groupReader(entityTypeGroup) } },
  unique: { signal_engagement_project_name_key: 'name' },
  hooks: {
    beforeWrite(_tx, ctx, values, existing) {
      if (!existing) values.creator_id = ctx.user.id;
      nullMeansDefault(values, 'require_mfa', false, existing);
    },
  },
};
