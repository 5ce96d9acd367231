// The events of an incident's or a case's life that background effects follow.

/** A role handed to someone else: an incident's commander or reporter, a case's assignee, a policy's scribe. */
export interface RoleChange {
  role: string;
  /** Who held it (e-mail), or null when nobody did. */
  from: string | null;
  /** Who holds it now (e-mail). */
  to: string;
}

/** What changed in an update, for the notifications, routing and chat messages that follow it. */
export interface RecordChange {
  status?: { from: string; to: string };
  /** Which of type, severity and priority changed. */
  assessment?: ('type' | 'severity' | 'priority')[];
  /** Roles that changed hands. */
  roles?: RoleChange[];
  /** Whether the title changed. */
  title?: boolean;
}

export type RecordEvent = { event: 'created' } | { event: 'updated'; change: RecordChange };
