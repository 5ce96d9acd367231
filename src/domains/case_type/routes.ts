import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { caseTypeGroup } from './group.ts';

export default async function caseTypeRoutes(app: App) {
  registerGroup(app, caseTypeGroup);
}
