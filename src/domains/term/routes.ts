import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { termGroup } from './group.ts';

export default async function termRoutes(app: App) {
  registerGroup(app, termGroup);
}
