// Baseline A: a bare Fastify route answering a constant JSON object (shaped like an organization,
// so the bytes on the wire compare with Muster's). What HTTP alone costs on this machine.
// Env: PORT. Exits when the benchmark that started it goes away.
import Fastify from 'fastify';
import { exitWithParent, listen } from './common.ts';

const ORGANIZATION = {
  id: 1,
  name: 'default',
  slug: 'default',
  description: 'Default Dispatch organization.',
  default: true,
  banner_enabled: false,
  banner_text: null,
  banner_color: null,
};

const app = Fastify({ logger: false });
app.get('/healthcheck', async () => ({ status: 'ok' }));
app.get('/organizations/:id', async () => ORGANIZATION);

exitWithParent(() => app.close());
await listen(app);
