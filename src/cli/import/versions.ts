// The Dispatch schema revisions the importer reads: the sample database's and every later one up to
// Dispatch's last release (2025-09-02). Anything else is refused before a row is read.

/** Organization schema revisions, oldest first; what each adds is read only when present. */
export const TENANT_REVISIONS = [
  '8f324b0f365a', // 2025-04-17, the sample database
  '7fc3888c7b9a', // tag_type.genai_suggestions
  '5ed5defd1a55', // case.stable_at
  'f63ad392dbbf', // incident_type / case_type.generate_read_in_summary
  'aa87efd3d6c1', // Slack /dispatch-summary command (data only)
  '6e66b6578810', // case_priority.disable_delayed_message_warning
  'df10accae9a9', // case_notes
  '408118048599', // prompt
  '4649b11b683f', // case.resolved_by_id
  'f2bce475e71b', // project.suggest_security_event_over_incident
  'ff08d822ef2c', // canvas: the last release
] as const;

export const CORE_REVISIONS = ['ed0b0388fa3f', '903183fd9aee'] as const;

export const LAST_RELEASE = 'the last release of Dispatch (2025-09-02)';

/** Why a revision cannot be read, or undefined when it can. */
export function revisionProblem(where: string, found: string | undefined, known: readonly string[]): string | undefined {
  if (!found) return `${where} has no alembic_version: it is not a Dispatch database`;
  if (known.includes(found)) return undefined;
  return `${where} is at revision ${found}, which is not one the importer knows: it reads Dispatch databases from revision ${known[0]} (April 2025) up to ${LAST_RELEASE}, revision ${known[known.length - 1]}. A newer Dispatch is not supported; an older one: upgrade it with Dispatch's own \`dispatch database upgrade\` first`;
}
