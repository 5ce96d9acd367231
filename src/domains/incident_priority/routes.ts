import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { incidentPriorityGroup } from './group.ts';

export default async function incidentPriorityRoutes(app: App) {
  registerGroup(app, incidentPriorityGroup);
}
