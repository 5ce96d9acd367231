import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { casePriorityGroup } from './group.ts';

export default async function casePriorityRoutes(app: App) {
  registerGroup(app, casePriorityGroup);
}
