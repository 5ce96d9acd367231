// Signals: definitions, filters, engagements, instances and the entities found in them. Instance
// fingerprints are computed again the way Muster computes them (definition and entities), so an
// instance that arrives after the switch is grouped with the imported ones.
import { fingerprintOf } from '../../domains/signal/fingerprint.ts';
import { exec, type Importer, type Spec } from './copy.ts';
import { inProject, linking } from './people.ts';

const GENAI = 'Muster has no GenAI features';

export const signalSpecs: Spec[] = [
  inProject('signal', 'signal', {
    refs: { case_type_id: 'case_type', case_priority_id: 'case_priority', oncall_service_id: 'service', source_id: 'source' },
    lost: {
      genai_enabled: GENAI,
      genai_model: GENAI,
      genai_system_message: GENAI,
      genai_prompt: GENAI,
      runbook: 'Muster keeps no runbook on a signal definition',
      lifecycle: 'Muster keeps no lifecycle text on a signal definition',
      loopin_signal_identity: 'Muster does not loop in the identity of a signal',
      default: 'Muster has no default signal definition',
    },
  }),
  inProject('signal_filter', 'signal_filter', { refs: { creator_id: 'app_user' } }),
  {
    ...linking('signal_filter_link', 'assoc_signal_filters', { signal_id: ['signal_id', 'signal'], signal_filter_id: ['signal_filter_id', 'signal_filter'] }),
    select:
      'SELECT signal_id, signal_filter_id, (row_number() OVER (PARTITION BY signal_id ORDER BY signal_filter_id) - 1)::int AS position FROM {s}.assoc_signal_filters',
  },
  linking('signal_entity_type', 'assoc_signal_entity_types', { signal_id: ['signal_id', 'signal'], entity_type_id: ['entity_type_id', 'entity_type'] }),
  linking('signal_tag', 'assoc_signal_tags', { signal_id: ['signal_id', 'signal'], tag_id: ['tag_id', 'tag'] }),
  inProject('signal_engagement', 'signal_engagement', { refs: { entity_type_id: 'entity_type', creator_id: 'app_user' } }),
  inProject('signal_instance', 'signal_instance', {
    naturalKey: 'id',
    refs: { signal_id: 'signal', case_id: 'case' },
    lost: {
      engagement_thread_ts: 'Muster keeps no engagement thread on an instance',
      conversation_target: "Muster takes the definition's",
      case_type_id: "Muster takes the definition's",
      case_priority_id: "Muster takes the definition's",
      oncall_service_id: "Muster takes the definition's",
      canary: 'Muster has no canary instances',
    },
  }),
  {
    kind: 'signal_instance_entity',
    from: 'assoc_signal_instance_entities',
    select: 'SELECT signal_instance_id, entity_id FROM {s}.assoc_signal_instance_entities',
    link: ['signal_instance_id', 'entity_id'],
    refs: { entity_id: 'entity' },
  },
];

/** Fingerprints of the organization's instances from their definition and entities, where they differ. */
export async function rebuildFingerprints(im: Importer): Promise<number> {
  const rows = await exec<{ id: string; signal_id: number; pairs: [number, string][] | null }>(
    im.db,
    `SELECT i.id, i.signal_id, (SELECT json_agg(json_build_array(e.entity_type_id, e.value)) FROM signal_instance_entity x JOIN entity e ON e.id = x.entity_id WHERE x.signal_instance_id = i.id) AS pairs
     FROM signal_instance i WHERE i.organization_id = $1`,
    [im.organizationId],
  );
  const updates = rows.map((r) => ({
    id: r.id,
    fingerprint: fingerprintOf(
      r.signal_id,
      (r.pairs ?? []).map(([typeId, value]) => ({ typeId, value: String(value) })),
    ),
  }));
  let changed = 0;
  for (let i = 0; i < updates.length; i += 2000) {
    const done = await exec(
      im.db,
      'UPDATE signal_instance t SET fingerprint = x.fingerprint FROM json_populate_recordset(NULL::signal_instance, $1::json) x WHERE t.id = x.id AND t.fingerprint IS DISTINCT FROM x.fingerprint RETURNING 1',
      [JSON.stringify(updates.slice(i, i + 2000))],
    );
    changed += done.length;
  }
  return changed;
}
