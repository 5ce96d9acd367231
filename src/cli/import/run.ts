// `muster import dispatch`: every organization of a Dispatch database (or those named) into
// Muster's database, each in one transaction, in the order its records reference one another.
import { writeFileSync } from 'node:fs';
import type { Executor } from '../../db/connection.ts';
import { buildTagModel, MODEL_NAMES } from '../../domains/tag_recommendation/model.ts';
import { caseDetailSpecs, caseSpec } from './cases.ts';
import { BROUGHT, CORE_SCOPE, exec, Importer, type Spec } from './copy.ts';
import { countHomeless } from './homeless.ts';
import { incidentDetailSpecs, incidentSpec, participantSpecs } from './incidents.ts';
import { contactSpecs, importOrganization, importPeople, importProjects } from './people.ts';
import { importPlugins, type Keys, matchCatalogue, workflowRunSpecs, workflowSpecs } from './plugins.ts';
import { referenceSpecs } from './reference.ts';
import { OrganizationReport } from './report.ts';
import { groupSpec, recordDocumentSpecs } from './records.ts';
import { rebuildFingerprints, signalSpecs } from './signals.ts';
import { Source, type SourceOrganization } from './source.ts';

export interface ImportOptions {
  from: string;
  /** Slugs of the organizations to bring; all when empty. */
  orgs?: string[];
  dryRun?: boolean;
  keys: Keys;
  /** Where the map of remapped ids goes. */
  idMap?: string;
  allowNonempty?: boolean;
}

class DryRun extends Error {}

/** Tables whose rows show a Muster in use (beyond what its first start seeds). */
const IN_USE = ['app_user', 'incident', 'case'];

async function unrelatedRows(db: Executor): Promise<string[]> {
  const found: string[] = [];
  for (const t of IN_USE) {
    const [r] = await exec<{ n: number }>(db, `SELECT count(*)::int AS n FROM "${t}" WHERE id NOT IN (SELECT target_id FROM import_source WHERE kind = $1)`, [
      t,
    ]);
    if (r.n > 0) found.push(`${r.n} ${t} row(s)`);
  }
  return found;
}

/** An organization (`o`) that did not come from an import and that nobody has used yet. */
const UNUSED = `o.id NOT IN (SELECT target_id FROM import_source WHERE kind = 'organization')
  AND NOT EXISTS (SELECT 1 FROM user_organization u WHERE u.organization_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM incident i WHERE i.organization_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM "case" c WHERE c.organization_id = o.id)`;

/**
 * Organizations nobody has used yet (no member, no record) that an imported one of the same slug
 * replaces: the `default` organization a Muster's first start seeds.
 */
async function removeUnusedSeeds(db: Executor, slug: string): Promise<void> {
  await exec(db, `DELETE FROM organization o WHERE o.slug = $1 AND ${UNUSED}`, [slug]);
}

/** Ids are kept when one organization comes into a Muster that holds nothing else. */
async function canKeepIds(db: Executor, org: SourceOrganization, count: number): Promise<boolean> {
  if (count !== 1) return false;
  const [r] = await exec<{ others: number; scopes: number }>(
    db,
    `SELECT (SELECT count(*)::int FROM organization o WHERE o.id NOT IN (SELECT target_id FROM import_source WHERE scope = $1 AND kind = 'organization' AND source_id = $2)
              AND NOT (o.slug = $4 AND ${UNUSED})) AS others,
            (SELECT count(DISTINCT scope)::int FROM import_source WHERE scope NOT IN ($1, $3)) AS scopes`,
    [CORE_SCOPE, String(org.id), org.schema, org.slug],
  );
  const [mapped] = await exec<{ n: number }>(db, `SELECT count(*)::int AS n FROM import_source WHERE scope = $1`, [org.schema]);
  const [users] = await exec<{ n: number }>(db, `SELECT count(*)::int AS n FROM app_user`);
  // A first import keeps ids only into an empty Muster; a later one keeps what the first decided.
  const kept =
    mapped.n === 0
      ? users.n === 0
      : (await exec(db, `SELECT 1 FROM import_source WHERE scope = $1 AND kind = 'project' AND source_id::int <> target_id`, [org.schema])).length === 0;
  return r.others === 0 && r.scopes === 0 && kept;
}

const ALL_SPECS: Spec[] = [
  ...contactSpecs,
  ...referenceSpecs,
  ...workflowSpecs,
  incidentSpec,
  caseSpec,
  ...participantSpecs,
  ...incidentDetailSpecs,
  ...caseDetailSpecs,
  ...recordDocumentSpecs,
  groupSpec,
  ...signalSpecs,
  ...workflowRunSpecs,
];

async function importOne(db: Executor, source: Source, org: SourceOrganization, keepIds: boolean, opts: ImportOptions): Promise<OrganizationReport> {
  const report = new OrganizationReport(org.slug);
  report.idMap = keepIds ? 'kept' : 'remapped';
  try {
    await db.transaction(async (tx) => {
      await removeUnusedSeeds(tx, org.slug);
      const im = new Importer(tx, source, org.schema, report, keepIds);
      await im.load();
      await importOrganization(im, org);
      await matchCatalogue(im);
      await importPeople(im, org);
      await importProjects(im);
      for (const spec of [...contactSpecs, ...referenceSpecs]) await im.copy(spec);
      await importPlugins(im, opts.keys);
      for (const spec of ALL_SPECS.slice(contactSpecs.length + referenceSpecs.length)) await im.copy(spec);
      await im.finish();
      await im.removeVanished();
      const fingerprints = await rebuildFingerprints(im);
      if (fingerprints) report.notes.push(`${fingerprints} signal instance fingerprint(s) computed again`);
      if (['incident_tag', 'case_tag', 'incident', 'case'].some((t) => report.written.has(t)))
        for (const project of im.mapOf('project').values()) for (const name of MODEL_NAMES) await buildTagModel(tx, im.organizationId, project, name);
      await countHomeless(im, ALL_SPECS);
      if (opts.dryRun) throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun))
      throw new Error(`organization ${org.slug} was not imported (nothing of it was written): ${(err as Error).message}`, { cause: err });
  }
  return report;
}

export async function importDispatch(db: Executor, opts: ImportOptions, log: (line: string) => void = () => {}): Promise<OrganizationReport[]> {
  const source = await Source.open(opts.from);
  try {
    const all = await source.organizations();
    const wanted = opts.orgs?.length ? opts.orgs : all.map((o) => o.slug);
    const unknown = wanted.filter((s) => !all.some((o) => o.slug === s));
    if (unknown.length) throw new Error(`the Dispatch database has no organization ${unknown.join(', ')} (it has ${all.map((o) => o.slug).join(', ')})`);
    const orgs = all.filter((o) => wanted.includes(o.slug));
    const unrelated = await unrelatedRows(db);
    if (unrelated.length && !opts.allowNonempty)
      throw new Error(
        `Muster's database already holds data that did not come from this import (${unrelated.join(', ')}); import into an empty Muster, or pass --allow-nonempty to add Dispatch's organizations beside it (ids are then remapped)`,
      );
    const reports: OrganizationReport[] = [];
    for (const org of orgs) {
      const keep = !opts.allowNonempty && (await canKeepIds(db, org, orgs.length));
      log(`Importing organization ${org.slug} (Dispatch revision ${org.revision}), ids ${keep ? 'kept' : 'remapped'}`);
      reports.push(await importOne(db, source, org, keep, opts));
    }
    if (!opts.dryRun && (opts.idMap || reports.some((r) => r.idMap === 'remapped'))) {
      const file = opts.idMap ?? 'dispatch-id-map.json';
      writeFileSync(file, `${JSON.stringify(await idMap(db, orgs), null, 1)}\n`);
      log(`Id map written to ${file}`);
    }
    return reports;
  } finally {
    await source.close();
  }
}

/** `{organization slug: {Muster table: {Dispatch id: Muster id}}}`, and the accounts under `dispatch_core`. */
async function idMap(db: Executor, orgs: SourceOrganization[]) {
  const rows = await exec<{ scope: string; kind: string; source_id: string; target_id: number }>(
    db,
    'SELECT scope, kind, source_id, target_id FROM import_source WHERE scope = ANY($1::text[]) AND starts_with(kind, $2) IS NOT TRUE ORDER BY scope, kind, target_id',
    [[CORE_SCOPE, ...orgs.map((o) => o.schema)], BROUGHT],
  );
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const r of rows) {
    const scope = r.scope === CORE_SCOPE ? CORE_SCOPE : r.scope.replace(/^dispatch_organization_/, '');
    ((out[scope] ??= {})[r.kind] ??= {})[r.source_id] = r.target_id;
  }
  return out;
}
