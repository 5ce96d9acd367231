// What the incidents pages read of the API's answers (IncidentReadMinimal and the pickers' records),
// only the fields they use.

export interface Named {
  id: number;
  name: string;
}

export interface ProjectRef extends Named {
  display_name?: string;
}

export interface Person {
  individual: { id?: number; email: string; name?: string | null };
}

export interface Incident {
  id: number;
  name: string | null;
  title: string;
  description: string;
  status: string;
  visibility: string;
  reported_at: string;
  stable_at: string | null;
  closed_at: string | null;
  project: ProjectRef;
  incident_type: Named;
  incident_priority: Named;
  incident_severity: Named;
  commander: Person | null;
  reporter: Person | null;
  tags: (Named & { tag_type?: Named | null })[];
  total_cost?: number;
  /** In the table's rows only (the API's incidents-table projection): when a responder last said something. */
  last_update_at?: string | null;
}

/** A priority, severity or type: per project. */
export interface Assessment extends Named {
  project?: Named;
  default?: boolean;
  enabled?: boolean;
  view_order?: number;
}

export interface Tag extends Named {
  tag_type?: Named | null;
  project?: Named;
}

export interface SearchFilter {
  id: number;
  name: string;
  description?: string | null;
  expression: unknown[];
  subject: string;
  creator?: { email: string } | null;
}
