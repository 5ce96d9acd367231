// The events of an incident's or a case's life that background effects follow.

/** What changed in an update, for the notifications and routing that follow it. */
export interface RecordChange {
  status?: { from: string; to: string };
  /** Which of type, severity and priority changed. */
  assessment?: ('type' | 'severity' | 'priority')[];
}

export type RecordEvent = { event: 'created' } | { event: 'updated'; change: RecordChange };
