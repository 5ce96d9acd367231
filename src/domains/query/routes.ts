import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { queryGroup } from './group.ts';

export default async function queryRoutes(app: App) {
  registerGroup(app, queryGroup);
}
