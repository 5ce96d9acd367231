import { Type } from '@sinclair/typebox';
import type { App } from '../../server/routing.ts';
import { OrgParams } from '../../server/shapes.ts';
import { GroupRead } from '../case/schema.ts';
import { INCIDENT_ROWS } from '../lifecycle/kind.ts';
import { listGroups } from './service.ts';

/** An incident's groups with their kind (`tactical`, `notifications`); a case's are in its read (`groups`). */
const IncidentGroup = Type.Object({ ...GroupRead.properties, kind: Type.String() }, { title: 'IncidentGroup' });

export default async function groupRoutes(app: App) {
  app.get(
    '/:organization/incidents/:incident_id/groups',
    { schema: { tags: ['incidents'], params: OrgParams('incident_id'), response: { 200: Type.Array(IncidentGroup) } } },
    (req) => listGroups(req.ctx, INCIDENT_ROWS, req.params.incident_id),
  );
}
