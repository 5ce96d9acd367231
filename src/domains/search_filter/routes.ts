import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { searchFilterGroup } from './group.ts';

export default async function searchFilterRoutes(app: App) {
  registerGroup(app, searchFilterGroup);
}
