import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { caseSeverityGroup } from './group.ts';

export default async function caseSeverityRoutes(app: App) {
  registerGroup(app, caseSeverityGroup);
}
