// A signal definition's form values and the create/update bodies they become.
import type { Ref, Signal } from './types.ts';
import { refOf } from './types.ts';
import { textOrNull } from './form-body.ts';

export interface DefinitionValues {
  name: string;
  owner: string;
  external_id: string;
  variant: string;
  description: string;
  external_url: string;
  conversation_target: string;
  enabled: boolean;
  create_case: boolean;
  project: Ref | null;
  case_type: Ref | null;
  case_priority: Ref | null;
  entity_types: Ref[];
  filters: Ref[];
  tags: Ref[];
}

export const emptyDefinition = (project: Ref | null): DefinitionValues => ({
  name: '',
  owner: '',
  external_id: '',
  variant: '',
  description: '',
  external_url: '',
  conversation_target: '',
  enabled: true,
  create_case: true,
  project,
  case_type: null,
  case_priority: null,
  entity_types: [],
  filters: [],
  tags: [],
});

export function definitionValues(s: Signal): DefinitionValues {
  return {
    name: s.name,
    owner: s.owner,
    external_id: s.external_id,
    variant: s.variant ?? '',
    description: s.description ?? '',
    external_url: s.external_url ?? '',
    conversation_target: s.conversation_target ?? '',
    enabled: s.enabled,
    create_case: s.create_case,
    project: refOf(s.project),
    case_type: refOf(s.case_type),
    case_priority: refOf(s.case_priority),
    entity_types: s.entity_types.map((t) => ({ id: t.id, name: t.name ?? String(t.id) })),
    filters: s.filters.map((f) => ({ id: f.id, name: f.name })),
    tags: s.tags.map((t) => ({ id: t.id, name: t.name ?? String(t.id) })),
  };
}

const byId = (r: Ref | null) => (r ? { id: r.id } : null);

/**
 * The body of a create (`id` undefined) or an update. An update replaces every list it carries and
 * empties an omitted one, so the lists always go; cleared text goes as null.
 */
export function definitionBody(v: DefinitionValues, id?: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: v.name,
    owner: v.owner,
    external_id: v.external_id,
    variant: textOrNull(v.variant),
    description: textOrNull(v.description),
    external_url: textOrNull(v.external_url),
    conversation_target: textOrNull(v.conversation_target),
    enabled: v.enabled,
    create_case: v.create_case,
    case_type: byId(v.case_type),
    case_priority: byId(v.case_priority),
    entity_types: v.entity_types.map(byId),
    filters: v.filters.map(byId),
    tags: v.tags.map(byId),
    // Both shapes name the project; an update keeps the definition in its own whatever is sent.
    project: v.project ? { id: v.project.id } : undefined,
  };
  if (id === undefined) {
    // Null fields are left out of a create (the shape's defaults apply).
    for (const key of Object.keys(body)) if (body[key] === null) delete body[key];
  } else body.id = id;
  return body;
}
