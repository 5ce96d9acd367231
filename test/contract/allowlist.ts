// Every place where Muster knowingly differs from the Dispatch contract, with the reason. The contract
// test fails on any difference not listed here, and on an entry here that no served operation needs
// any more (so the list cannot quietly outlive the code).
//
// `service-summary.md` is the specification where it and Dispatch's document disagree; DESIGN.md
// lists what Muster does better than Dispatch. Those are the only acceptable reasons.
import type { Mismatch } from './compare.ts';

const WEB_UI = "beyond 0.1.0, for Dispatch's web UI (docs/compatibility.md), which is newer than 0.1.0 and reads or sends it";
const crudOps = (path: string, id: string) => [
  `GET /{organization}/${path}`,
  `POST /{organization}/${path}`,
  `GET /{organization}/${path}/{${id}}`,
  `PUT /{organization}/${path}/{${id}}`,
  `DELETE /{organization}/${path}/{${id}}`,
];

const ACCOUNTS = "accounts that cannot be taken over (docs/security.md): Dispatch let an Owner set any member's password and had no way to reset one";
const REGISTRATION = "multi-tenant registration (docs/compatibility.md, Beyond 0.1.0): Dispatch's register made anyone a Member of any organization";

const API_TOKENS = 'API tokens and service accounts for scripts and integrations (docs/api-tokens.md); Dispatch 0.1.0 had none';
const SSO = "single sign-on with an OpenID Connect provider (docs/single-sign-on.md), replacing Dispatch's PKCE provider";

/** Operations Muster serves under /api/v1 that are not in the contract. */
export const MUSTER_EXTRAS: { op: string; reason: string }[] = [
  // (/healthcheck, /healthcheck/ready and /docs* are left out of the comparison and out of our OpenAPI)
  {
    op: 'POST /{organization}/cases/{case_id}/false-positive',
    reason: 'triage: a case closed as a false positive with its reason, and the open cases of the same signal with it on request (docs/ui.md)',
  },
  { op: 'GET /{organization}/registration', reason: `an organization's registration policy: ${REGISTRATION}` },
  { op: 'PUT /{organization}/registration', reason: `an organization's registration policy, set by its Owners: ${REGISTRATION}` },
  { op: 'GET /{organization}/invitations', reason: `pending invitations to register: ${REGISTRATION}` },
  { op: 'POST /{organization}/invitations', reason: `an invitation to register, issued by Owners and Managers: ${REGISTRATION}` },
  { op: 'DELETE /{organization}/invitations/{invitation_id}', reason: `withdrawing an invitation: ${REGISTRATION}` },
  { op: 'GET /{organization}/api-tokens', reason: `the caller's API tokens: ${API_TOKENS}` },
  { op: 'POST /{organization}/api-tokens', reason: `a personal API token, shown once: ${API_TOKENS}` },
  { op: 'DELETE /{organization}/api-tokens/{token_id}', reason: `revoking an API token: ${API_TOKENS}` },
  { op: 'GET /{organization}/service-accounts', reason: `an organization's service accounts: ${API_TOKENS}` },
  { op: 'POST /{organization}/service-accounts', reason: `a service account, by Owners and Managers: ${API_TOKENS}` },
  { op: 'DELETE /{organization}/service-accounts/{service_account_id}', reason: `deactivating a service account: ${API_TOKENS}` },
  { op: 'GET /{organization}/service-accounts/{service_account_id}/tokens', reason: `a service account's tokens: ${API_TOKENS}` },
  { op: 'POST /{organization}/service-accounts/{service_account_id}/tokens', reason: `a service account's token, shown once: ${API_TOKENS}` },
  { op: 'POST /{organization}/auth/password', reason: `changing one's own password with the current one: ${ACCOUNTS}` },
  { op: 'POST /{organization}/auth/password-reset', reason: `asking for a password reset link by mail: ${ACCOUNTS}` },
  { op: 'POST /{organization}/auth/password-reset/complete', reason: `a new password with a reset link's token: ${ACCOUNTS}` },
  { op: 'POST /{organization}/auth/confirm', reason: `confirming an e-mail address with a mailed link: ${ACCOUNTS}` },
  {
    op: 'DELETE /{organization}/users/{user_id}',
    reason: `removing a member from the organization, as an Owner does instead of setting their password: ${ACCOUNTS}`,
  },
  {
    op: 'POST /invitations/accept',
    reason: `a signed-in person joins the organization of an invitation, never by registering again with a password: ${REGISTRATION}`,
  },
  { op: 'GET /{organization}/auth/methods', reason: `which sign-in methods the sign-in page offers (password, single sign-on): ${SSO}` },
  { op: 'GET /{organization}/auth/sso/login', reason: `starts single sign-on with the OpenID Connect provider (302): ${SSO}` },
  { op: 'GET /auth/sso/callback', reason: `where the provider returns the browser at the end of single sign-on (302): ${SSO}` },
  { op: 'GET /{organization}/sign-in', reason: `whether the organization accepts passwords beside single sign-on: ${SSO}` },
  { op: 'PUT /{organization}/sign-in', reason: `turning password sign-in off or on, by Owners: ${SSO}` },
  { op: 'GET /{organization}/auth/myrole', reason: `the caller's role in the organization: ${WEB_UI}` },
  { op: 'GET /{organization}/audit-log', reason: "the organization's audit log, for its Owners (docs/audit-log.md); Dispatch keeps none" },
  { op: 'GET /{organization}/audit-log/export', reason: "the organization's audit log as JSON lines or CSV, for its Owners (docs/audit-log.md)" },
  { op: 'GET /{organization}/documents/{document_id}/content', reason: 'the Markdown text of a document Muster keeps, with its version (docs/documents.md)' },
  {
    op: 'PUT /{organization}/documents/{document_id}/content',
    reason: 'editing a kept document: a stale version answers 409, not a lost edit (docs/documents.md)',
  },
  { op: 'GET /{organization}/documents/{document_id}/revisions', reason: "a kept document's saved versions: who and when (docs/documents.md)" },
  { op: 'POST /{organization}/documents/{document_id}/action_items', reason: "a review's open action items made tasks of its incident (docs/documents.md)" },
  { op: 'GET /{organization}/documents/{document_id}/export', reason: 'a kept document (a post-incident review) as Markdown or PDF (docs/documents.md)' },
  { op: 'POST /{organization}/incidents/{incident_id}/event', reason: `a custom timeline event, as Dispatch's later API adds it: ${WEB_UI}` },
  { op: 'PATCH /{organization}/incidents/{incident_id}/event', reason: `correcting a custom timeline event, as Dispatch's later API does: ${WEB_UI}` },
  {
    op: 'DELETE /{organization}/incidents/{incident_id}/event/{event_uuid}',
    reason: `removing a custom timeline event, as Dispatch's later API does: ${WEB_UI}`,
  },
  {
    op: 'POST /{organization}/incidents/{incident_id}/participants',
    reason: "adding a person to an incident by email with a role, for Muster's own web UI (Dispatch adds people only from chat)",
  },
  {
    op: 'DELETE /{organization}/incidents/{incident_id}/participants/{participant_id}',
    reason: "taking a person off an incident (their roles end, they stay listed as inactive), for Muster's own web UI",
  },
  { op: 'GET /{organization}/cases/{case_id}/participants', reason: `a case's participants (\`?minimal=true\`), for its participant pickers: ${WEB_UI}` },
  ...crudOps('cost_models', 'cost_model_id').map((op) => ({ op, reason: `activity-based cost models of incident and case types: ${WEB_UI}` })),
  { op: 'GET /{organization}/plugins/plugin_events', reason: `the plugin events cost model activities price: ${WEB_UI}` },
  ...crudOps('signals/engagements', 'engagement_id').map((op) => ({ op, reason: `signal engagements of the signal definitions page: ${WEB_UI}` })),
  ...['incidents/{incident_id}', 'cases/{case_id}'].flatMap((record) => [
    { op: `GET /{organization}/${record}/files`, reason: "a record's files, kept by its storage plugin (docs/files.md); Dispatch linked a Drive folder" },
    { op: `POST /{organization}/${record}/files`, reason: 'attaching a file to a record, checked for size and type (docs/files.md)' },
    { op: `GET /{organization}/${record}/files/{file_id}`, reason: 'downloading a file of a record, as an attachment (docs/files.md)' },
    { op: `DELETE /{organization}/${record}/files/{file_id}`, reason: 'removing a file from a record (docs/files.md)' },
  ]),
  {
    op: 'GET /{organization}/incidents/{incident_id}/groups',
    reason: "an incident's tactical and notifications groups (docs/files.md), which Dispatch 0.1.0 kept but did not show",
  },
];

export interface Deviation {
  /** The mismatch kind (see compare.ts): `query.bounds`, `body.default`, ... */
  kind: string;
  /** `where` of the mismatch, exactly or by pattern. */
  where: string | RegExp;
  /** The operations it applies to (`GET /organizations`); every operation when absent. */
  ops?: string[];
  /** The mismatch's message, exactly: the deviation allowed, so that any other one still fails. */
  message: string;
  reason: string;
}

const LIST_OPS_REASON = 'the summary (Limits, list query parameters) stands over the contract';

export const DEVIATIONS: Deviation[] = [
  // ---- list query parameters (every list operation) --------------------------------------------
  {
    kind: 'query.bounds',
    where: 'query page',
    message: '0..2147483647, contract 1..2147483646',
    reason: `page is 0..2147483647 (page 0 reads as page 1) where the contract says 0 < page < 2147483647: ${LIST_OPS_REASON}`,
  },
  {
    kind: 'query.bounds',
    where: 'query itemsPerPage',
    message: '-2..2147483647, contract -1..2147483646',
    reason: `itemsPerPage is -2..2147483647 (-2 reads as -1, "all") where the contract says -2 < itemsPerPage < 2147483647: ${LIST_OPS_REASON}`,
  },
  {
    kind: 'query.default',
    where: 'query filter',
    message: 'default "", contract []',
    reason:
      'filter defaults to the empty string (no filter), as the summary says; the contract writes `[]`, a FastAPI ' +
      'artefact: a JSON array as the default of a string parameter, which means "no filter" too',
  },

  // ---- path ids (every operation with a record id) ---------------------------------------------
  {
    kind: 'path.bounds',
    where: /^path \w+_id$/,
    message: '0..2147483647, contract 1..2147483646',
    reason:
      'path ids are integers in 0..2147483647 per the summary (Common parameters, Limits), where the contract says ' +
      '0 < id < 2147483647: id 0 answers 404 instead of 422',
  },

  // ---- request validation Muster tightens (DESIGN: no 5xx and no corrupt data for any client input)
  {
    kind: 'body.bounds',
    where: 'body.annual_employee_cost',
    message: '0..inf, contract none',
    ops: ['POST /{organization}/projects', 'PUT /{organization}/projects/{project_id}'],
    reason: 'a negative annual employee cost makes every incident cost negative; Muster answers 422 (minimum 0)',
  },
  {
    kind: 'body.bounds',
    where: 'body.business_year_hours',
    message: '1..inf, contract none',
    ops: ['POST /{organization}/projects', 'PUT /{organization}/projects/{project_id}'],
    reason: 'incident costs divide by business_year_hours: 0 would divide by zero and a negative value is meaningless; Muster answers 422 (minimum 1)',
  },
  {
    kind: 'body.bounds',
    where: /^body\.(tactical|executive)_report_reminder$/,
    message: '0..inf, contract none',
    ops: ['POST /{organization}/incident_priorities', 'PUT /{organization}/incident_priorities/{incident_priority_id}'],
    reason: 'reminder hours are a period: a negative one would remind at no hour; Muster answers 422 (minimum 0, 0 for none)',
  },
  {
    kind: 'body.bounds',
    where: 'body.password',
    message: 'minLength=1, contract none',
    ops: ['POST /{organization}/auth/login'],
    reason: 'an empty password is rejected (minLength 1), as Dispatch\'s own validator does ("Must not be empty string"), which its OpenAPI does not show',
  },
  {
    kind: 'body.bounds',
    where: 'body.password',
    message: 'minLength=1, contract none',
    ops: ['PUT /{organization}/users/{user_id}'],
    reason: 'an empty password is rejected (minLength 1) where Dispatch would store the hash of the empty string',
  },
  {
    kind: 'body.bounds',
    where: 'body.password',
    message: 'minLength=1, contract none',
    ops: ['POST /{organization}/auth/register'],
    reason:
      'an empty password is rejected (minLength 1); null or no password still gets a random one. Dispatch treats "" like ' +
      'no password and generates one, leaving the caller with a password they do not know',
  },
  {
    kind: 'body.extra',
    where: 'body.invitation',
    message: 'accepted, but the contract has no such field',
    ops: ['POST /{organization}/auth/register'],
    reason: `the token of an invitation to the organization, optional: ${REGISTRATION}`,
  },
  {
    kind: 'body.extra',
    where: 'body.current_password',
    message: 'accepted, but the contract has no such field',
    ops: ['PUT /{organization}/users/{user_id}'],
    reason: `${ACCOUNTS}: setting one's own password proves the current one`,
  },

  // ---- record groups --------------------------------------------------------------------------
  {
    kind: 'body.bounds',
    where: 'body.sampling_rate',
    message: '1..101, contract 2..100',
    ops: ['POST /{organization}/data/sources', 'PUT /{organization}/data/sources/{source_id}'],
    reason: 'the summary gives sampling_rate the range 1..101 (Source, Limits) where the contract writes exclusive bounds 1 and 101',
  },
  {
    kind: 'body.default',
    where: /^body\.(plugin_metadata|links)$/,
    message: 'default none, contract []',
    ops: [
      'PUT /{organization}/case_types/{case_type_id}',
      'PUT /{organization}/incident_types/{incident_type_id}',
      'PUT /{organization}/data/sources/{source_id}',
    ],
    reason:
      'values stored on the record, not relationships: an update that leaves them out keeps them (Pydantic exclude_unset), ' +
      'where a default of [] in the update body would erase them',
  },
  {
    kind: 'body.default',
    where: 'body.incidents',
    message: 'default none, contract []',
    ops: ['PUT /{organization}/data/sources/{source_id}'],
    reason: "a source's incidents are read-only in Muster (incidents are linked from the incident side), so an update body has no say in them",
  },

  // ---- incidents ------------------------------------------------------------------------------
  {
    kind: 'body.extra',
    where: /^body\.incident_(priority|severity|type)\.id$/,
    message: 'accepted, but the contract has no such field',
    ops: ['POST /{organization}/incidents', 'PUT /{organization}/incidents/{incident_id}', 'PUT /{organization}/cases/{case_id}/escalate'],
    reason:
      'a type, priority or severity is named by id as well as by name, as every record named in a Muster body is ' +
      '(crud/refs.ts); the web UI sends whole read objects, whose id names the record even after a rename',
  },

  // ---- cases ----------------------------------------------------------------------------------
  {
    kind: 'body.extra',
    where: /^body\.case_(priority|severity|type)\.id$/,
    message: 'accepted, but the contract has no such field',
    ops: ['PUT /{organization}/cases/{case_id}'],
    reason: "as for incidents: a case type, priority or severity is named by id as well as by name (the update body's Base shapes lack the id)",
  },

  {
    kind: 'body.extra',
    where: 'body.cost_model',
    message: 'accepted, but the contract has no such field',
    ops: [
      'POST /{organization}/incident_types',
      'PUT /{organization}/incident_types/{incident_type_id}',
      'POST /{organization}/case_types',
      'PUT /{organization}/case_types/{case_type_id}',
    ],
    reason: `the cost model of an incident or case type: ${WEB_UI}`,
  },

  // ---- signals --------------------------------------------------------------------------------
  {
    kind: 'body.extra',
    where: 'body.source.id',
    message: 'accepted, but the contract has no such field',
    ops: ['POST /{organization}/signals', 'PUT /{organization}/signals/{signal_id}'],
    reason: "as for incidents: the source of a definition is named by id as well as by name (the contract's SourceBase lacks the id)",
  },
  {
    kind: 'response.missing',
    where: 'response',
    message:
      'missing case_priority, case_type, conversation_target, create_case, created_at, enabled, entity_types, external_id, external_url, filters, oncall_service, owner and 5 more (17 of 20 dispatch__signal__models__SignalRead properties)',
    ops: ['PUT /{organization}/signals/filters/{signal_filter_id}'],
    reason:
      'a filter update answers with the filter (SignalFilterRead), as current Dispatch does: the contract declares a signal-shaped ' +
      'answer, but a filter belongs to no one signal, and the OpenAPI-era route behind it failed (500) on every call (BEHAVIOR.md 8.1)',
  },

  // ---- beyond 0.1.0, for the web UI --------------------------------------------------------------
  {
    kind: 'body.extra',
    where: /^body\.(display_name|enabled|allow_self_join)$/,
    message: 'accepted, but the contract has no such field',
    ops: ['POST /{organization}/projects', 'PUT /{organization}/projects/{project_id}'],
    reason: `a project's display name, whether report forms offer it, and whether Members may join its incidents themselves: ${WEB_UI}`,
  },
  {
    kind: 'body.extra',
    where: /^body\.discoverable_(incident|case|signal|query|source|document)$/,
    message: 'accepted, but the contract has no such field',
    ops: ['POST /{organization}/tag_types', 'PUT /{organization}/tag_types/{tag_type_id}'],
    reason: `which tag pickers offer a tag type's tags: ${WEB_UI}`,
  },
  {
    kind: 'body.extra',
    where: 'body.reporter',
    message: 'accepted, but the contract has no such field',
    ops: ['PUT /{organization}/cases/{case_id}'],
    reason: `the case's reporter, set by the case page's reporter picker as the assignee is: ${WEB_UI}`,
  },
  {
    kind: 'body.extra',
    where: 'body.scope',
    message: 'accepted, but the contract has no such field',
    ops: ['POST /{organization}/entity_type', 'PUT /{organization}/entity_type/{entity_type_id}', 'PUT /{organization}/entity_type/{entity_type_id}/process'],
    reason: `which signal definitions an entity type applies to: ${WEB_UI}`,
  },
  {
    kind: 'body.extra',
    where: /^body\.(project\.(display_name|enabled|allow_self_join)|tag_type\.discoverable_\w+|(entity_type|entity_types\[\])\.scope|case\.reporter)$/,
    message: 'accepted, but the contract has no such field',
    reason:
      `a record a body names by id or name may be sent as its whole read object, which now carries the fields added ${WEB_UI}; ` +
      'they are ignored there, as the rest of the object is',
  },

  // ---- notifications ----------------------------------------------------------------------------
  {
    kind: 'query.required',
    where: 'query q',
    message: 'required, contract optional',
    ops: ['GET /{organization}/search'],
    reason:
      'a search without q is 422: Dispatch 0.1.0 builds no valid answer without one (BEHAVIOR.md 10.3, "q required in practice"), ' +
      'so a client never got a search without q to work',
  },
  ...(['body.enum', 'response.enum'] as const).map((kind) => ({
    kind,
    where: /^(body|response|response\.items\[\])\.type$/,
    message: 'enum ["conversation","email","webhook"], contract ["conversation","email"]',
    ops: [
      'GET /{organization}/notifications',
      'POST /{organization}/notifications',
      'GET /{organization}/notifications/{notification_id}',
      'PUT /{organization}/notifications/{notification_id}',
    ],
    reason: 'notifications may target a signed webhook (docs/compatibility.md)',
  })),
];

export function allowedBy(m: Mismatch, d: Deviation): boolean {
  if (d.kind !== m.kind) return false;
  if (d.ops && !d.ops.includes(m.op)) return false;
  if (d.message !== m.message) return false;
  return typeof d.where === 'string' ? d.where === m.where : d.where.test(m.where);
}
