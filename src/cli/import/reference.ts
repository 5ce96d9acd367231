// The records a project configures: priorities, severities, types, cost types and models, tags,
// terms, definitions, documents, sources and their catalogues, queries, alerts, entity types and
// entities, incident role policies.
import { inProject, linking } from './people.ts';
import type { Spec } from './copy.ts';

const GENAI = 'Muster has no GenAI features';

export const referenceSpecs: Spec[] = [
  // Documents a project keeps (templates, runbooks); those of an incident or a case are counted apart.
  inProject('document', 'document', {
    select: 'SELECT * FROM {s}.document WHERE incident_id IS NULL AND case_id IS NULL AND report_id IS NULL',
    refs: { project_id: 'project' },
  }),
  linking('document_filter', 'assoc_document_filters', { document_id: ['document_id', 'document'], search_filter_id: ['search_filter_id', 'search_filter'] }),
  inProject('incident_priority', 'incident_priority', { lost: { disable_delayed_message_warning: 'Muster always warns of delayed messages' } }),
  inProject('incident_severity', 'incident_severity', { lost: { allowed_for_stable_incidents: 'Muster allows every severity on a stable incident' } }),
  inProject('cost_model', 'cost_model'),
  inProject('cost_model_activity', 'cost_model_activity', {
    select:
      'SELECT a.*, x.cost_model_id, m.project_id FROM {s}.cost_model_activity a JOIN {s}.assoc_cost_model_activities x ON x.cost_model_activity_id = a.id JOIN {s}.cost_model m ON m.id = x.cost_model_id',
    refs: { cost_model_id: 'cost_model', plugin_event_id: 'plugin_event' },
  }),
  inProject('incident_type', 'incident_type', {
    refs: {
      incident_template_document_id: 'document',
      executive_template_document_id: 'document',
      review_template_document_id: 'document',
      tracking_template_document_id: 'document',
      cost_model_id: 'cost_model',
    },
    lost: { generate_read_in_summary: GENAI, task_plugin_metadata: 'Muster has no per-type task plugin metadata' },
  }),
  inProject('incident_cost_type', 'incident_cost_type'),
  inProject('case_priority', 'case_priority', { lost: { disable_delayed_message_warning: 'Muster always warns of delayed messages' } }),
  inProject('case_severity', 'case_severity'),
  inProject('case_type', 'case_type', {
    refs: { case_template_document_id: 'document', oncall_service_id: 'service', incident_type_id: 'incident_type', cost_model_id: 'cost_model' },
    lost: { generate_read_in_summary: GENAI, auto_close: 'Muster does not close cases of a type on its own' },
  }),
  inProject('tag_type', 'tag_type', { lost: { genai_suggestions: GENAI } }),
  inProject('tag', 'tag', { refs: { tag_type_id: 'tag_type' } }),
  inProject('term', 'term'),
  inProject('definition', 'definition'),
  linking('definition_term', 'definition_terms', { definition_id: ['definition_id', 'definition'], term_id: ['term_id', 'term'] }),
  inProject('source_type', 'source_type'),
  inProject('source_status', 'source_status'),
  inProject('source_transport', 'source_transport'),
  inProject('source_environment', 'source_environment'),
  inProject('source_data_format', 'source_data_format'),
  inProject('source', 'source', {
    refs: {
      owner_id: 'service',
      source_type_id: 'source_type',
      source_status_id: 'source_status',
      source_transport_id: 'source_transport',
      source_environment_id: 'source_environment',
      source_data_format_id: 'source_data_format',
    },
  }),
  linking('source_tag', 'assoc_source_tags', { source_id: ['source_id', 'source'], tag_id: ['tag_id', 'tag'] }),
  inProject('query', 'query', { refs: { source_id: 'source' } }),
  linking('query_tag', 'assoc_query_tags', { query_id: ['query_id', 'query'], tag_id: ['tag_id', 'tag'] }),
  { kind: 'alert', from: 'alert', rename: { originator: 'orginator' }, refs: { source_id: 'source' } },
  inProject('entity_type', 'entity_type'),
  inProject('entity', 'entity', { refs: { entity_type_id: 'entity_type' } }),
  inProject('incident_role_policy', 'incident_role', {
    rename: { individual_contact_id: 'individual_id' },
    refs: { service_id: 'service', individual_contact_id: 'individual_contact' },
    lost: { engage_next_oncall: 'Muster pages the current on-call only' },
  }),
  linking('role_policy_incident_priority', 'incident_role_incident_priority', {
    policy_id: ['incident_role_id', 'incident_role_policy'],
    incident_priority_id: ['incident_priority_id', 'incident_priority'],
  }),
  linking('role_policy_incident_type', 'incident_role_incident_type', {
    policy_id: ['incident_role_id', 'incident_role_policy'],
    incident_type_id: ['incident_type_id', 'incident_type'],
  }),
  linking('role_policy_tag', 'incident_role_tag', { policy_id: ['incident_role_id', 'incident_role_policy'], tag_id: ['tag_id', 'tag'] }),
];
