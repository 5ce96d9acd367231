// The fixed descriptions Dispatch's reads give a record's resources (its `messaging/strings.py`, as
// its later read shapes set them). Dispatch's web UI shows each as part of a resource link's text on
// the receipts, and clients find the links by that text, so they are Dispatch's words exactly.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

export const RESOURCE_DESCRIPTIONS = {
  ticket: 'Ticket for tracking purposes. It contains information and links to resources.',
  storage:
    'Common storage for all artifacts and documents. Add logs, screen captures, or any other data collected during the investigation to this folder. It is shared with all participants.',
  // Dispatch sends its template as it is, unrendered.
  conference: "Video conference and phone bridge to be used throughout the incident.  Password: {{conference_challenge if conference_challenge else 'N/A'}}",
  conversation: 'Private conversation for real-time discussion. All incident participants get added to it.',
  // Every group of a record reads with the tactical group's description, in Dispatch.
  group: 'Group for managing member access to storage. All participants get added to it.',
} as const;

/** What a document of a built-in kind is for, when its own description is empty (by resource type). */
export const DOCUMENT_DESCRIPTIONS: Record<string, string> = {
  'dispatch-conversation-reference-document':
    'Document containing the list of slash commands available to the Incident Commander (IC) and participants in the incident conversation.',
  'dispatch-incident-reference-faq-document':
    'First time responding to an incident? This document answers common questions encountered when helping us respond to an incident.',
  'dispatch-case-document':
    'This is a document for all investigation facts and context. All case participants are expected to contribute to this document. It is shared with all participants.',
  'dispatch-executive-report-document': 'This is a document that contains an executive report about the incident.',
  'dispatch-incident-document':
    'This is a document for all incident facts and context. All incident participants are expected to contribute to this document. It is shared with all incident participants.',
  'dispatch-incident-review-document': 'This document will capture all lessons learned, questions, and action items raised during the incident.',
  'dispatch-incident-sheet':
    'This is a sheet for tracking impacted assets. All incident participants are expected to contribute to this sheet. It is shared with all incident participants.',
};

/** A record's JSON resource column read with its fixed description (null stays null), and `more` fields if given. */
export const describedResource = (value: SQLWrapper, kind: keyof typeof RESOURCE_DESCRIPTIONS, more?: SQL): SQL => {
  const text = sql.raw(`'${RESOURCE_DESCRIPTIONS[kind].replaceAll("'", "''")}'::text`);
  return sql`CASE WHEN ${value} IS NULL THEN NULL ELSE (${value}::jsonb${more ? sql` || ${more}` : sql``} || jsonb_build_object('description', ${text}))::json END`;
};
