// What a slash command or a button does, and who may do it where. A flow acts for a Slack user as
// the Muster user with the e-mail address of their Slack profile, with the same tenant context
// (`Ctx`) the HTTP API builds, so every service applies its own rules to them. Before it runs,
// `prepare` finds that user and the record the flow acts on (the incident or case whose channel
// the command was typed in, or the one a button names) and checks what Dispatch checked: a person
// Muster does not know does nothing, an incident command belongs in an incident's channel, a
// sensitive one needs the Incident Commander's or the Scribe's role. A refusal is an ephemeral
// message, never an error.
import { resolveCaller } from '../domains/auth/service.ts';
import { CASE } from '../domains/case/kind.ts';
import { INCIDENT } from '../domains/incident/kind.ts';
import { recordOfChannel } from '../domains/lifecycle/channel.ts';
import { activeRoles, participantByEmail } from '../domains/lifecycle/participants.ts';
import { assertVisible } from '../domains/lifecycle/visibility.ts';
import type { OrganizationRow } from '../domains/organization/table.ts';
import type { SlackApi } from '../plugins/builtin/slack/api.ts';
import type { SlackSettings } from '../plugins/builtin/slack/config.ts';
import type { ChatMessage } from '../plugins/types.ts';
import type { Ctx } from '../server/context.ts';
import { ApiError } from '../server/errors.ts';
import type { Form, ModalView } from './blocks.ts';
import type { ChatEnv } from './request.ts';
import { texts } from './texts.ts';

/** Who asked, where, and how to answer: what a command or a button carries, kept for the job or the modal. */
export interface Invocation {
  /** The organization's URL slug (the request's path). */
  organization: string;
  /** The flow's name (a command of COMMANDS, or a button's flow). */
  flow: string;
  /** How the person called it, for messages: the slash command, or the button's label. */
  called: string;
  slackUser: string;
  channelId: string | null;
  channelName?: string | null;
  responseUrl?: string | null;
  triggerId?: string | null;
  /** What was typed after the command. */
  text?: string;
  /** The record a button names; else the channel's. */
  record?: { kind: 'incident' | 'case'; id: number } | null;
}

export interface Subject {
  kind: 'incident' | 'case';
  id: number;
  projectId: number;
}

/** A flow's run: the caller's context, the record it acts on, and Slack. */
export interface FlowContext {
  env: ChatEnv;
  ctx: Ctx<OrganizationRow>;
  /** The caller's name as Slack shows it (for timeline entries they write). */
  name: string;
  subject: Subject | null;
  inv: Invocation;
  api: SlackApi;
  slack: SlackSettings;
}

/** What a modal's submission comes to: done (a message to show in the modal), or errors by input. */
export type Submitted = { done: string } | { errors: Record<string, string> };

/** A submission refused on one input, the message shown under it. */
export const inputError = (block: string, msg: string): Submitted => ({ errors: { [block]: msg } });

export interface Flow {
  /** What it acts on: the channel's incident or case, none, or the incident when there is one. */
  on: 'incident' | 'case' | 'none' | 'incident-if-any';
  /** Only the incident's Incident Commander or Scribe may run it (Dispatch's sensitive commands). */
  sensitive?: boolean;
  /** The command's answer while it runs (Dispatch's texts). */
  ack: string;
  /** A modal, opened while Slack waits (its trigger expires 3 s after the command), and its submission. */
  modal?: {
    open(f: FlowContext): Promise<ModalView>;
    submit(f: FlowContext, form: Form): Promise<Submitted>;
  };
  /** Work answered later, through the response URL: run in a job. */
  reply?: (f: FlowContext) => Promise<ChatMessage>;
}

/** A flow that will not run: the ephemeral message saying why. */
export class Refused extends Error {
  constructor(readonly text: string) {
    super(text);
    this.name = 'Refused';
  }
}

/** What a service's refusal (a 403, a 404, a 422) says to a person in Slack. */
export function refusalOf(err: ApiError): string {
  if (err.statusCode === 403) return texts.forbidden;
  const detail = err.detail;
  if (Array.isArray(detail)) return detail.map((d: { msg?: string }) => d.msg ?? '').join(' ') || 'Muster refused this.';
  return typeof detail === 'string' ? detail : 'Muster refused this.';
}

export interface Caller {
  ctx: Ctx<OrganizationRow>;
  name: string;
}

/** The Muster member with this e-mail address, as the HTTP API's auth hook resolves a caller. */
export async function callerOfEmail(env: ChatEnv, organization: string, email: string | null, name?: string | null): Promise<Caller> {
  const found = email ? await resolveCaller(env.db, email, { slug: organization }) : null;
  if (!found?.organization || !found.role) throw new Refused(texts.unknownUser(email, organization));
  const ctx = { db: env.db, settings: env.settings, user: found.user, organization: found.organization as OrganizationRow, role: found.role };
  return { ctx, name: name || found.user.email };
}

/** The Slack user's Muster self: their profile's e-mail address (users.info) names them. */
export async function callerOfSlackUser(env: ChatEnv, api: SlackApi, organization: string, slackUser: string): Promise<Caller> {
  const profile = await api.user(slackUser);
  return callerOfEmail(env, organization, profile?.email ?? null, profile?.name);
}

const SENSITIVE_ROLES = ['Incident Commander', 'Scribe'];

/** The record `flow` acts on for this caller, checked; null for flows that act on none. */
export async function subjectFor(ctx: Ctx, flow: Flow, inv: Invocation): Promise<Subject | null> {
  if (flow.on === 'none') return null;
  const found = inv.record ?? (inv.channelId ? await recordOfChannel(ctx.db, ctx.organization.id, inv.channelId) : undefined);
  const wanted = flow.on === 'case' ? 'case' : 'incident';
  if (!found || found.kind !== wanted) {
    if (flow.on === 'incident-if-any') return null;
    throw new Refused(wanted === 'case' ? texts.notInCase(inv.called) : texts.notInIncident(inv.called));
  }
  const kind = found.kind === 'incident' ? INCIDENT : CASE;
  // Visibility is the one place's: a Restricted record is seen by Admins and its participants.
  const visible = found.kind === 'incident' ? assertVisible(ctx, INCIDENT, found.id, ctx.db) : assertVisible(ctx, CASE, found.id, ctx.db);
  const row = await visible.catch((err) => {
    if (err instanceof ApiError && err.statusCode === 404) return undefined;
    throw err;
  });
  if (!row) {
    if (flow.on === 'incident-if-any') return null;
    throw new Refused(texts.hidden(found.kind));
  }
  if (flow.sensitive) {
    const me = await participantByEmail(ctx.db, kind, found.id, ctx.user.email);
    const roles = me?.active ? await activeRoles(ctx.db, me.id) : [];
    if (!roles.some((r) => SENSITIVE_ROLES.includes(r))) throw new Refused(texts.notPrivileged(inv.called));
  }
  return { kind: found.kind, id: found.id, projectId: row.project_id };
}

/** Who calls and on what: a flow's context, or Refused. */
export async function prepare(env: ChatEnv, api: SlackApi, slack: SlackSettings, flow: Flow, inv: Invocation, caller?: Caller): Promise<FlowContext> {
  const who = caller ?? (await callerOfSlackUser(env, api, inv.organization, inv.slackUser));
  const subject = await subjectFor(who.ctx, flow, inv);
  return { env, ctx: who.ctx, name: who.name, subject, inv, api, slack };
}
