import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { feedbackGroup } from './group.ts';

export default async function feedbackRoutes(app: App) {
  registerGroup(app, feedbackGroup);
}
