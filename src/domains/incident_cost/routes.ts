import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { incidentCostGroup } from './group.ts';

export default async function incidentCostRoutes(app: App) {
  registerGroup(app, incidentCostGroup);
}
