import { Type } from '@sinclair/typebox';
import { includeShape } from '../../list/include.ts';
import { sendKept } from '../../list/kept-answers.ts';
import type { Ctx } from '../../server/context.ts';
import { guardRecord } from '../auth/hook.ts';
import { ifMatch } from '../../server/etag.ts';
import type { App } from '../../server/routing.ts';
import { Defaulted, IncludeQuery, ListQuery, NullResponse, OrgParams, Pagination } from '../../server/shapes.ts';
import { ExecutiveReportCreate, TacticalReportCreate } from '../report/schema.ts';
import { createIncident, updateIncident } from './flows.ts';
import { readsDashboard } from './reader.ts';
import { IncidentCreate, IncidentRead, IncidentTableOwn, IncidentUpdate } from './schema.ts';
import {
  createExecutiveReport,
  createTacticalReport,
  deleteIncident,
  getIncidentResponse,
  joinIncident,
  listDashboard,
  listIncidents,
  subscribeToIncident,
} from './service.ts';
import { assertCanEdit, assertCanJoin, assertCanSelfJoin } from './visibility.ts';

const tags = ['incidents'];
const one = OrgParams('incident_id');

const IncidentListQuery = Type.Object({
  ...IncludeQuery.properties,
  expand: Defaulted(Type.Boolean({ default: false })),
  ...ListQuery.properties,
});

// Items are minimal, full with `expand`, or cut to `include[]` (where the table's own field may be asked for too): one permissive shape serializes all three.
const IncidentListItem = Type.Object({ ...IncidentRead.properties, ...IncidentTableOwn.properties }, { title: 'IncidentRead' });
const IncidentListResponse = includeShape(Pagination(IncidentListItem, 'IncidentPagination'));

const guard = (check: (ctx: Ctx, id: number) => Promise<unknown>) => guardRecord('incident_id', check);

export default async function incidentRoutes(app: App) {
  app.get(
    '/:organization/incidents',
    { schema: { tags, params: OrgParams(), querystring: IncidentListQuery, response: { 200: IncidentListResponse } } },
    // A dashboard's answer is kept while the tables it read are unchanged.
    (req, reply) =>
      readsDashboard(req.query['include[]'])
        ? sendKept(reply, req.ctx, 'incidents', req.query, () => listDashboard(req.ctx, req.query))
        : listIncidents(req.ctx, req.query),
  );

  app.post('/:organization/incidents', { schema: { tags, params: OrgParams(), body: IncidentCreate, response: { 200: IncidentRead } } }, (req) =>
    createIncident(req.ctx, req.body),
  );

  app.get(
    '/:organization/incidents/:incident_id',
    // No guard: the read itself finds only what the caller may see, and 404s the rest.
    { schema: { tags, params: one, response: { 200: IncidentRead } } },
    (req) => getIncidentResponse(req.ctx, req.params.incident_id),
  );

  app.put(
    '/:organization/incidents/:incident_id',
    {
      schema: { tags, params: one, body: IncidentUpdate, response: { 200: IncidentRead } },
      preValidation: guard(assertCanEdit),
      ...ifMatch((ctx, req) => getIncidentResponse(ctx, (req.params as { incident_id: number }).incident_id)),
    },
    (req) => updateIncident(req.ctx, req.params.incident_id, req.body),
  );

  app.delete(
    '/:organization/incidents/:incident_id',
    { schema: { tags, params: one, response: { 200: NullResponse } }, preValidation: guard(assertCanEdit) },
    (req) => deleteIncident(req.ctx, req.params.incident_id),
  );

  app.post(
    '/:organization/incidents/:incident_id/join',
    { schema: { tags, params: one, response: { 200: NullResponse } }, preValidation: guard(assertCanSelfJoin) },
    (req) => joinIncident(req.ctx, req.params.incident_id),
  );

  app.post(
    '/:organization/incidents/:incident_id/subscribe',
    { schema: { tags, params: one, response: { 200: NullResponse } }, preValidation: guard(assertCanJoin) },
    (req) => subscribeToIncident(req.ctx, req.params.incident_id),
  );

  app.post(
    '/:organization/incidents/:incident_id/report/executive',
    { schema: { tags, params: one, body: ExecutiveReportCreate, response: { 200: NullResponse } }, preValidation: guard(assertCanEdit) },
    (req) => createExecutiveReport(req.ctx, req.params.incident_id, req.body),
  );

  app.post(
    '/:organization/incidents/:incident_id/report/tactical',
    { schema: { tags, params: one, body: TacticalReportCreate, response: { 200: NullResponse } }, preValidation: guard(assertCanEdit) },
    (req) => createTacticalReport(req.ctx, req.params.incident_id, req.body),
  );
}
