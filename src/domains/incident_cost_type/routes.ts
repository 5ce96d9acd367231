import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { incidentCostTypeGroup } from './group.ts';

export default async function incidentCostTypeRoutes(app: App) {
  registerGroup(app, incidentCostTypeGroup);
}
