// The Dispatch database being read: one connection, read-only, with Dispatch's timestamps (stored
// without a time zone, in UTC) read as UTC instants whatever the importing machine's zone is.
import pg from 'pg';
import { CORE_REVISIONS, revisionProblem, TENANT_REVISIONS } from './versions.ts';

const TIMESTAMP = 1114;
const utc = (s: string) => `${s.replace(' ', 'T')}Z`;

export interface SourceOrganization {
  id: number;
  slug: string;
  name: string;
  /** `dispatch_organization_<slug>` */
  schema: string;
  revision: string;
}

export class Source {
  private tables = new Map<string, Set<string>>();
  private constructor(private client: pg.Client) {}

  static async open(url: string): Promise<Source> {
    const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === TIMESTAMP ? utc : pg.types.getTypeParser(oid, format)) };
    const client = new pg.Client({ connectionString: url, types: types as pg.CustomTypesConfig });
    try {
      await client.connect();
    } catch (err) {
      throw new Error(`cannot reach the Dispatch database: ${(err as Error).message}`);
    }
    // A repeatable snapshot: every table of an organization read as of one moment.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return new Source(client);
  }

  async rows<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query(text, params)).rows as T[];
  }

  /** The columns of `schema.table`, or undefined when it does not exist. */
  async columns(schema: string, table: string): Promise<Set<string> | undefined> {
    const key = `${schema}.${table}`;
    if (!this.tables.has(key)) {
      const cols = await this.rows<{ c: string }>('SELECT column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2', [
        schema,
        table,
      ]);
      if (cols.length === 0) return undefined;
      this.tables.set(key, new Set(cols.map((r) => r.c)));
    }
    return this.tables.get(key);
  }

  async tableNames(schema: string): Promise<string[]> {
    const rows = await this.rows<{ t: string }>(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1",
      [schema],
    );
    return rows.map((r) => r.t);
  }

  /** The organizations, each at a revision the importer reads; throws naming what it does not recognise. */
  async organizations(): Promise<SourceOrganization[]> {
    const core = await this.columns('dispatch_core', 'organization');
    const version = await this.columns('dispatch_core', 'alembic_version');
    if (!core || !version)
      throw new Error(
        'this database is not a Dispatch database: it has no dispatch_core.organization (Dispatch 0.1.0 and later keep one schema per organization)',
      );
    const [coreRev] = await this.rows<{ v: string }>('SELECT version_num AS v FROM dispatch_core.alembic_version');
    const coreProblem = revisionProblem('dispatch_core', coreRev?.v, CORE_REVISIONS);
    if (coreProblem) throw new Error(coreProblem);
    const orgs = await this.rows<{ id: number; slug: string; name: string }>('SELECT id, slug, name FROM dispatch_core.organization ORDER BY id');
    const out: SourceOrganization[] = [];
    for (const o of orgs) {
      const schema = `dispatch_organization_${o.slug}`;
      if (!(await this.columns(schema, 'alembic_version')))
        throw new Error(`organization ${o.slug} has no schema ${schema}: this database is not one the importer recognises`);
      const [rev] = await this.rows<{ v: string }>(`SELECT version_num AS v FROM "${schema}".alembic_version`);
      const problem = revisionProblem(schema, rev?.v, TENANT_REVISIONS);
      if (problem) throw new Error(problem);
      out.push({ ...o, schema, revision: rev.v });
    }
    return out;
  }

  async close(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => {});
    await this.client.end();
  }
}
