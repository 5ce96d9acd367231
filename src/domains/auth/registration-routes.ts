// Beyond Dispatch 0.1.0: an organization's self-registration policy and its invitations
// (registration.ts). GET/PUT /{organization}/registration, GET/POST /{organization}/invitations,
// DELETE /{organization}/invitations/{invitation_id}.
import type { App } from '../../server/routing.ts';
import { NullResponse, OrgParams } from '../../server/shapes.ts';
import {
  acceptInvitation,
  InvitationAccept,
  InvitationAccepted,
  createInvitation,
  deleteInvitation,
  getRegistration,
  InvitationCreate,
  InvitationCreated,
  InvitationList,
  listInvitations,
  RegistrationRead,
  RegistrationUpdate,
  setRegistration,
} from './registration.ts';

export default async function registrationRoutes(app: App) {
  const tags = ['auth'];
  app.get('/:organization/registration', { schema: { tags, params: OrgParams(), response: { 200: RegistrationRead } } }, (req) => getRegistration(req.ctx));
  app.put('/:organization/registration', { schema: { tags, params: OrgParams(), body: RegistrationUpdate, response: { 200: RegistrationRead } } }, (req) =>
    setRegistration(req.ctx, req.body),
  );
  app.get('/:organization/invitations', { schema: { tags, params: OrgParams(), response: { 200: InvitationList } } }, (req) => listInvitations(req.ctx));
  app.post('/:organization/invitations', { schema: { tags, params: OrgParams(), body: InvitationCreate, response: { 200: InvitationCreated } } }, (req) =>
    createInvitation(req.ctx, req.body),
  );
  // A signed-in person joins the organization of an invitation they hold (the invitation names it).
  app.post('/invitations/accept', { schema: { tags, body: InvitationAccept, response: { 200: InvitationAccepted } } }, (req) =>
    acceptInvitation(app.muster.db, req.caller, req.body.token, req.ip),
  );
  app.delete('/:organization/invitations/:invitation_id', { schema: { tags, params: OrgParams('invitation_id'), response: { 200: NullResponse } } }, (req) =>
    deleteInvitation(req.ctx, req.params.invitation_id),
  );
}
