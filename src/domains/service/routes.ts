import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { serviceGroup } from './group.ts';

export default async function serviceRoutes(app: App) {
  registerGroup(app, serviceGroup);
}
