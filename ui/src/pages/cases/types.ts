// What the case pages read of the API's case shapes (src/domains/case/schema.ts): the fields shown
// and sent back, no more.
export const CASE_STATUSES = ['New', 'Triage', 'Escalated', 'Stable', 'Closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const RESOLUTION_REASONS = ['False Positive', 'User Acknowledged', 'Mitigated', 'Escalated'] as const;
export const VISIBILITIES = ['Open', 'Restricted'] as const;

export interface Named {
  id: number;
  name: string;
  color?: string | null;
}

export interface Individual {
  id?: number;
  email: string;
  name?: string | null;
}

export interface Participant {
  id: number;
  individual?: Individual | null;
  participant_roles?: { role: string; renounced_at?: string | null }[];
}

export interface IncidentMinimal {
  id: number;
  name?: string | null;
  title?: string;
  status?: string | null;
}

export interface CaseMinimal {
  id: number;
  name?: string | null;
  title: string;
  description?: string | null;
  status?: CaseStatus | null;
  visibility?: string | null;
  reported_at?: string | null;
  case_priority?: Named | null;
  case_severity?: Named | null;
  case_type?: Named | null;
  project?: Named & { display_name?: string };
  assignee?: Participant | null;
  incidents?: IncidentMinimal[];
  related?: CaseMinimal[];
  duplicates?: CaseMinimal[];
}

export interface CaseEvent {
  uuid: string;
  started_at: string;
  source: string;
  description: string;
  type?: string | null;
  owner?: string | null;
  details?: Record<string, unknown> | null;
}

export interface CaseDocument {
  id: number;
  name: string;
  description?: string | null;
  resource_type?: string | null;
  weblink?: string | null;
  created_at?: string | null;
}

export interface SignalInstance {
  created_at: string;
  fingerprint?: string | null;
  raw: unknown;
  signal: { id: number; name: string; variant?: string | null; external_url?: string | null };
  entities?: { id: number; value?: string | null }[];
}

export interface Tag {
  id: number;
  name?: string | null;
  tag_type?: { name?: string | null } | null;
}

export interface Case extends CaseMinimal {
  resolution?: string | null;
  resolution_reason?: string | null;
  triage_at?: string | null;
  escalated_at?: string | null;
  closed_at?: string | null;
  created_at?: string | null;
  reporter?: Participant | null;
  participants?: Participant[];
  events?: CaseEvent[];
  documents?: CaseDocument[];
  signal_instances?: SignalInstance[];
  tags?: Tag[];
  ticket?: { weblink?: string | null } | null;
}

/** Where a case is shown: by its name, as the links Muster writes (chat, mail) name it. */
export const casePath = (organization: string, c: { id: number; name?: string | null }) =>
  `/${organization}/cases/${encodeURIComponent(c.name ?? String(c.id))}`;
export const incidentPath = (organization: string, i: { id: number; name?: string | null }) =>
  `/${organization}/incidents/${encodeURIComponent(i.name ?? String(i.id))}`;
