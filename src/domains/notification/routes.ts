import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { notificationGroup } from './group.ts';

export default async function notificationRoutes(app: App) {
  registerGroup(app, notificationGroup);
}
