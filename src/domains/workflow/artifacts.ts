// What a workflow run produced, kept as documents linked to the run and owned by the run's incident
// or case (Restricted with it), in the run's project.
// Document names are unique per project, and workflow systems name their artifacts as they please
// ("report.pdf", every run alike): a name already taken gets the run's id appended.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { webAddress } from '../document/group.ts';
import { document } from '../document/table.ts';
import { recordDocument } from '../record_document/table.ts';
import { workflowInstanceArtifact } from './table.ts';

export interface Artifact {
  name: string;
  description?: string | null;
  resource_id?: string | null;
  resource_type?: string | null;
  weblink?: string | null;
}

interface Run {
  id: number;
  organization_id: number;
  project_id: number;
  incident_id?: number | null;
  case_id?: number | null;
}

/** The names tried for an artifact, in turn. */
const candidates = (name: string, runId: number) => [
  name,
  `${name} (run ${runId})`,
  ...Array.from({ length: 20 }, (_, i) => `${name} (run ${runId}-${i + 2})`),
];

/** Whether a document already linked to the run is this artifact (a later status check reporting it again). */
const sameArtifact = (doc: { name: string; weblink: string | null; resource_id: string | null }, a: Artifact) =>
  (doc.name === a.name || doc.name.startsWith(`${a.name} (run `)) && doc.weblink === (a.weblink ?? null) && doc.resource_id === (a.resource_id ?? null);

/** Stores the artifacts the run does not have yet as documents linked to it; returns how many were added. */
export async function keepArtifacts(tx: Executor, run: Run, artifacts: Artifact[]): Promise<number> {
  // A workflow system's link that is not a web address is not kept: people would open it.
  const wanted = artifacts.map((a) => ({ ...a, name: a.name.trim() })).filter((a) => a.name.length >= 3 && webAddress(a.weblink));
  if (wanted.length === 0) return 0;
  const linked = await tx
    .select({ name: document.name, weblink: document.weblink, resource_id: document.resource_id })
    .from(workflowInstanceArtifact)
    .innerJoin(document, eq(document.id, workflowInstanceArtifact.document_id))
    .where(eq(workflowInstanceArtifact.workflow_instance_id, run.id));
  let added = 0;
  for (const a of wanted) {
    if (linked.some((doc) => sameArtifact(doc, a))) continue;
    let id: number | undefined;
    for (const name of candidates(a.name, run.id)) {
      // ON CONFLICT DO NOTHING: a taken name does not abort the transaction, the next one is tried.
      const [row] = await tx
        .insert(document)
        .values({
          organization_id: run.organization_id,
          project_id: run.project_id,
          name,
          description: a.description ?? null,
          resource_id: a.resource_id ?? null,
          resource_type: a.resource_type ?? null,
          weblink: a.weblink ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: document.id });
      if (row) {
        id = row.id;
        break;
      }
    }
    if (id === undefined) continue; // every candidate taken: the artifact is not worth failing the run for
    await tx.insert(workflowInstanceArtifact).values({ workflow_instance_id: run.id, document_id: id });
    if (run.incident_id || run.case_id)
      await tx.insert(recordDocument).values({ document_id: id, incident_id: run.incident_id ?? null, case_id: run.case_id ?? null });
    linked.push({ name: a.name, weblink: a.weblink ?? null, resource_id: a.resource_id ?? null });
    added++;
  }
  return added;
}
