// Baseline B: a bare Fastify route doing one primary-key SELECT through a `pg` Pool, against the
// PostgreSQL server Muster uses. What HTTP plus one database round trip costs on this machine.
// Env: PORT, DATABASE_URL, MUSTER_DB_POOL_SIZE (10, as Muster's). The table is its own, made here.
import Fastify from 'fastify';
import pg from 'pg';
import { exitWithParent, listen } from './common.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.MUSTER_DB_POOL_SIZE ?? 10) });

await pool.query(`CREATE TABLE IF NOT EXISTS bench_organization (
  id integer PRIMARY KEY, name text NOT NULL, slug text NOT NULL, description text,
  "default" boolean NOT NULL DEFAULT false, banner_enabled boolean NOT NULL DEFAULT false,
  banner_text text, banner_color text)`);
await pool.query(`INSERT INTO bench_organization (id, name, slug, description, "default")
  VALUES (1, 'default', 'default', 'Default Dispatch organization.', true) ON CONFLICT (id) DO NOTHING`);

const SELECT = 'SELECT id, name, slug, description, "default", banner_enabled, banner_text, banner_color FROM bench_organization WHERE id = $1';

const app = Fastify({ logger: false });
app.get('/healthcheck', async () => ({ status: 'ok' }));
app.get<{ Params: { id: string } }>('/organizations/:id', async (req, reply) => {
  const { rows } = await pool.query(SELECT, [Number(req.params.id)]);
  if (!rows.length) return reply.code(404).send({ detail: [{ msg: 'not found' }] });
  return rows[0];
});

exitWithParent(async () => {
  await app.close();
  await pool.end();
});
await listen(app);
