import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { incidentSeverityGroup } from './group.ts';

export default async function incidentSeverityRoutes(app: App) {
  registerGroup(app, incidentSeverityGroup);
}
