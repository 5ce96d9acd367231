import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { tagGroup } from './group.ts';

export default async function tagRoutes(app: App) {
  registerGroup(app, tagGroup);
}
