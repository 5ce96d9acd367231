import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { costModelGroup } from './group.ts';

export default async function costModelRoutes(app: App) {
  registerGroup(app, costModelGroup);
}
