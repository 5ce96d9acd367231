import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { documentGroup } from './group.ts';

export default async function documentRoutes(app: App) {
  registerGroup(app, documentGroup);
}
