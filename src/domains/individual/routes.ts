import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { individualGroup } from './group.ts';

export default async function individualRoutes(app: App) {
  registerGroup(app, individualGroup);
}
