import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { alertGroup } from './group.ts';

export default async function alertRoutes(app: App) {
  registerGroup(app, alertGroup);
}
