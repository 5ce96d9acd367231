import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { definitionGroup } from './group.ts';

export default async function definitionRoutes(app: App) {
  registerGroup(app, definitionGroup);
}
