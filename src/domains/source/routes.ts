import { registerGroup } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { sourceGroup } from './group.ts';
import { SOURCE_METADATA } from './metadata.ts';

export default async function sourceRoutes(app: App) {
  for (const m of Object.values(SOURCE_METADATA)) registerGroup(app, m.group);
  registerGroup(app, sourceGroup);
}
