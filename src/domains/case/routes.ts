import { Type } from '@sinclair/typebox';
import { includeShape } from '../../list/include.ts';
import { sendKept } from '../../list/kept-answers.ts';
import type { Ctx } from '../../server/context.ts';
import { guardRecord } from '../auth/hook.ts';
import { ifMatch } from '../../server/etag.ts';
import type { App } from '../../server/routing.ts';
import { Defaulted, IncludeQuery, ListQuery, NullResponse, OrgParams, Pagination } from '../../server/shapes.ts';
import { ParticipantRead } from '../participant/schema.ts';
import { IncidentCreate, IncidentRead } from '../incident/schema.ts';
import { CaseFalsePositive, CaseFalsePositiveResult, markFalsePositive } from './false-positive.ts';
import { createCase, escalateCase, updateCase } from './flows.ts';
import { CaseCreate, CaseRead, CaseReadIncludable, CaseUpdate } from './schema.ts';
import { readsCaseDashboard } from './reader.ts';
import { deleteCase, getCaseResponse, listCaseDashboard, listCaseParticipants, listCases } from './service.ts';
import { assertCanEditCase, assertCanViewCase } from './visibility.ts';

const tags = ['cases'];
const one = OrgParams('case_id');

const CaseListQuery = Type.Object({ ...IncludeQuery.properties, ...ListQuery.properties });
// Items are minimal, or cut to `include[]` (which may keep tags and stable_at too): one permissive shape serializes both.
const CaseListResponse = includeShape(Pagination(CaseReadIncludable, 'CasePagination'));

// Beyond 0.1.0, for the web UI: `?minimal=true` reads each contact without its filters. Minimal or
// full, one permissive shape (ParticipantRead with nothing required) serializes both.
const ParticipantsQuery = Type.Object({ minimal: Defaulted(Type.Boolean({ default: false })) });
const CaseParticipants = Type.Array(includeShape(ParticipantRead));

const guard = (check: (ctx: Ctx, id: number) => Promise<unknown>) => guardRecord('case_id', check);

export default async function caseRoutes(app: App) {
  app.get(
    '/:organization/cases',
    { schema: { tags, params: OrgParams(), querystring: CaseListQuery, response: { 200: CaseListResponse } } },
    // A dashboard's answer is kept while the tables it read are unchanged, its open cases' costs set at the time of each request.
    (req, reply) =>
      readsCaseDashboard(req.query['include[]'])
        ? sendKept(reply, req.ctx, 'cases', req.query, () => listCaseDashboard(req.ctx, req.query))
        : listCases(req.ctx, req.query),
  );

  app.post('/:organization/cases', { schema: { tags, params: OrgParams(), body: CaseCreate, response: { 200: CaseRead } } }, (req) =>
    createCase(req.ctx, req.body),
  );

  // No guard: the read itself finds only what the caller may see, and 404s the rest.
  app.get('/:organization/cases/:case_id', { schema: { tags, params: one, response: { 200: CaseRead } } }, (req) =>
    getCaseResponse(req.ctx, req.params.case_id),
  );

  app.get(
    '/:organization/cases/:case_id/participants',
    {
      schema: { tags, operationId: 'get_case_participants', params: one, querystring: ParticipantsQuery, response: { 200: CaseParticipants } },
      preValidation: guard(assertCanViewCase),
    },
    (req) => listCaseParticipants(req.ctx, req.params.case_id, req.query.minimal),
  );

  app.put(
    '/:organization/cases/:case_id',
    {
      schema: { tags, params: one, body: CaseUpdate, response: { 200: CaseRead } },
      preValidation: guard(assertCanEditCase),
      ...ifMatch((ctx, req) => getCaseResponse(ctx, (req.params as { case_id: number }).case_id)),
    },
    (req) => updateCase(req.ctx, req.params.case_id, req.body),
  );

  app.delete(
    '/:organization/cases/:case_id',
    { schema: { tags, params: one, response: { 200: NullResponse } }, preValidation: guard(assertCanEditCase) },
    (req) => deleteCase(req.ctx, req.params.case_id),
  );

  // Beyond 0.1.0: a false positive closed with its reason, and the same signal's other open cases with it on request.
  app.post(
    '/:organization/cases/:case_id/false-positive',
    { schema: { tags, params: one, body: CaseFalsePositive, response: { 200: CaseFalsePositiveResult } }, preValidation: guard(assertCanEditCase) },
    (req) => markFalsePositive(req.ctx, req.params.case_id, req.body),
  );

  app.put(
    '/:organization/cases/:case_id/escalate',
    { schema: { tags, params: one, body: IncidentCreate, response: { 200: IncidentRead } }, preValidation: guard(assertCanEditCase) },
    (req) => escalateCase(req.ctx, req.params.case_id, req.body),
  );
}
