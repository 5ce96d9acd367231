import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { tagTypeGroup } from './group.ts';

export default async function tagTypeRoutes(app: App) {
  registerGroup(app, tagTypeGroup);
}
