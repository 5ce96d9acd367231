import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { entityGroup } from './group.ts';

export default async function entityRoutes(app: App) {
  registerGroup(app, entityGroup);
}
