// The incident timeline's custom events (Dispatch's later API: POST and PATCH /incidents/{id}/event,
// DELETE /incidents/{id}/event/{uuid}) and adding or taking off a person, for the web UI's
// incident page. Each needs what an edit of the incident needs.
import { Type } from '@sinclair/typebox';
import type { Ctx } from '../../server/context.ts';
import type { App } from '../../server/routing.ts';
import { NullResponse, OrgParams } from '../../server/shapes.ts';
import { guardRecord } from '../auth/hook.ts';
import { EventCreateMinimal, EventUpdate, IncidentParticipantAdd } from './timeline-schema.ts';
import { addCustomEvent, addIncidentParticipant, deleteCustomEvent, updateCustomEvent } from './timeline.ts';
import { removeIncidentParticipant } from './service.ts';
import { assertCanEdit } from './visibility.ts';

const tags = ['incidents'];
const one = OrgParams('incident_id');
const person = OrgParams('incident_id', 'participant_id');
const guard = (check: (ctx: Ctx, id: number) => Promise<unknown>) => guardRecord('incident_id', check);

export default async function incidentTimelineRoutes(app: App) {
  app.post(
    '/:organization/incidents/:incident_id/event',
    { schema: { tags, params: one, body: EventCreateMinimal, response: { 200: NullResponse } }, preValidation: guard(assertCanEdit) },
    (req) => addCustomEvent(req.ctx, req.params.incident_id, req.body),
  );

  app.patch(
    '/:organization/incidents/:incident_id/event',
    { schema: { tags, params: one, body: EventUpdate, response: { 200: NullResponse } }, preValidation: guard(assertCanEdit) },
    (req) => updateCustomEvent(req.ctx, req.params.incident_id, req.body),
  );

  app.delete(
    '/:organization/incidents/:incident_id/event/:event_uuid',
    {
      schema: { tags, params: Type.Object({ ...one.properties, event_uuid: Type.String({ format: 'uuid' }) }), response: { 200: NullResponse } },
      preValidation: guard(assertCanEdit),
    },
    (req) => deleteCustomEvent(req.ctx, req.params.incident_id, req.params.event_uuid),
  );

  app.post(
    '/:organization/incidents/:incident_id/participants',
    { schema: { tags, params: one, body: IncidentParticipantAdd, response: { 200: NullResponse } }, preValidation: guard(assertCanEdit) },
    (req) => addIncidentParticipant(req.ctx, req.params.incident_id, req.body.email, req.body.role ?? 'Participant'),
  );

  app.delete(
    '/:organization/incidents/:incident_id/participants/:participant_id',
    {
      schema: { tags, params: person, response: { 200: NullResponse } },
      preValidation: guard(assertCanEdit),
    },
    (req) => removeIncidentParticipant(req.ctx, req.params.incident_id, req.params.participant_id),
  );
}
