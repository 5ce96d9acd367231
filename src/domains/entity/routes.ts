import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { entityGroup } from './group.ts';

// The entity's signal instances and cases are the signal domain's (signal/entity-routes.ts).
export default async function entityRoutes(app: App) {
  registerGroup(app, entityGroup);
}
