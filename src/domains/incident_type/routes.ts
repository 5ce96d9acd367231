import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { incidentTypeGroup } from './group.ts';

export default async function incidentTypeRoutes(app: App) {
  registerGroup(app, incidentTypeGroup);
}
