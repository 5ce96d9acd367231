import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { teamGroup } from './group.ts';

export default async function teamRoutes(app: App) {
  registerGroup(app, teamGroup);
}
