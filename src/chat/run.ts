// Running flows: a modal opened while Slack waits, its submission, and answers delivered later.
//
// A modal is opened in the request itself, not in a job: views.open takes the command's (or the
// button's) trigger, which Slack lets expire three seconds after the command, and a job's start
// depends on the queue's polling and backlog, which nothing bounds. The request does it with Slack
// calls bounded by REQUEST_TIMEOUT_MS each (users.info, then views.open), well inside Slack's three
// seconds; when Slack is slow or rate limits, the person is told to try again. Everything that can
// wait (lists, a button's work, refusals of a button) is a job, answered through the response URL.
//
// The modal carries what its submission needs in its private metadata (who opened it, as Muster
// and as Slack, and on which record): Slack returns it with the submission, signed with the rest,
// so the submission asks Slack nothing more; the caller's membership, role and permissions are
// read again from the database, never trusted from the metadata.
import { enqueue } from '../jobs/queue.ts';
import { outboundFor } from '../lib/outbound/client.ts';
import { isRetryLater } from '../lib/retry-later.ts';
import { respond, SlackApi, SlackCallError, SlackUnavailable } from '../plugins/builtin/slack/api.ts';
import type { SlackSettings } from '../plugins/builtin/slack/config.ts';
import type { ChatMessage } from '../plugins/types.ts';
import { ApiError } from '../server/errors.ts';
import { type Block, Form, modal, section } from './blocks.ts';
import { callerOfEmail, type Flow, type FlowContext, type Invocation, prepare, Refused, refusalOf } from './flow.ts';
import { flowNamed } from './flows.ts';
import type { ChatEnv, SlackInstance } from './request.ts';
import { texts } from './texts.ts';

/** How long one Slack call made while Slack waits for Muster's answer may take. */
export const REQUEST_TIMEOUT_MS = 1_200;

export const CHAT_COMMAND = 'chat-command';
export const CHAT_REPLY = 'chat-reply';

/** Slack's client for calls made while Slack waits. */
export const requestApi = (env: ChatEnv, signed: SlackInstance) =>
  new SlackApi(signed.slack, outboundFor(env.settings.outboundAllow), { timeoutMs: REQUEST_TIMEOUT_MS });

/** What a person is told when a flow cannot run; anything else is a fault and is thrown. */
export function refusalText(err: unknown): string {
  if (err instanceof Refused) return err.text;
  if (err instanceof ApiError) return refusalOf(err);
  if (isRetryLater(err)) return texts.slackBusy(err.seconds);
  if (err instanceof SlackCallError || err instanceof SlackUnavailable) return texts.slackFailed;
  throw err;
}

// ---- modals --------------------------------------------------------------------------------------

/** What a modal carries for its submission (see above), in Slack's 3000 characters. */
interface ModalMeta {
  /** The flow. */
  f: string;
  /** How it was called (the slash command or the button), for messages. */
  w: string;
  /** The Slack user who opened it, and their e-mail address and name then. */
  u: string;
  e: string;
  n: string;
  /** The channel, and the record it acts on with its project. */
  c: string | null;
  s: { kind: 'incident' | 'case'; id: number; p: number } | null;
}

const metadataOf = (f: FlowContext): ModalMeta => ({
  f: f.inv.flow,
  w: f.inv.called,
  u: f.inv.slackUser,
  e: f.ctx.user.email,
  n: f.name,
  c: f.inv.channelId,
  s: f.subject && { kind: f.subject.kind, id: f.subject.id, p: f.subject.projectId },
});

/** A modal's metadata, when it is one of Muster's. */
export function readMetadata(view: unknown): ModalMeta | undefined {
  const text = (view as { private_metadata?: unknown } | undefined)?.private_metadata;
  if (typeof text !== 'string' || !text) return undefined;
  try {
    const m = JSON.parse(text) as ModalMeta;
    return typeof m?.f === 'string' && typeof m.u === 'string' && typeof m.e === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Opens the flow's modal for the invocation; returns what to tell the person when it could not. */
export async function openModal(env: ChatEnv, signed: SlackInstance, flow: Flow, inv: Invocation): Promise<string | null> {
  const api = requestApi(env, signed);
  try {
    if (!inv.triggerId) throw new Refused(texts.slackFailed);
    const f = await prepare(env, api, signed.slack, flow, inv);
    const view = await flow.modal!.open(f);
    await api.openView(inv.triggerId, modal(view, inv.flow, JSON.stringify(metadataOf(f))));
    return null;
  } catch (err) {
    return refusalText(err);
  }
}

const inputIds = (blocks: unknown): string[] =>
  (Array.isArray(blocks) ? (blocks as Block[]) : []).filter((b) => b.type === 'input' && typeof b.block_id === 'string').map((b) => b.block_id as string);

/** A service's 422, by the modal's inputs: each item on the input named like its field, else on the first. */
function errorsOf(err: ApiError, inputs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const items = Array.isArray(err.detail) ? (err.detail as { loc?: (string | number)[]; msg?: string }[]) : [];
  for (const item of items) {
    const field = (item.loc ?? []).find((l) => typeof l === 'string' && l !== 'body') as string | undefined;
    const block = field && inputs.includes(field) ? field : inputs[0];
    if (block) out[block] = [out[block], item.msg].filter(Boolean).join(' ');
  }
  return out;
}

/** What a modal shows in place of its form: a message. */
const shown = (title: string, text: string) => ({ response_action: 'update', view: modal({ title, blocks: [section(text)] }) });

/** A view submission's answer: errors by input, or the modal updated with the outcome. */
export async function submitModal(env: ChatEnv, signed: SlackInstance, organization: string, payload: Record<string, unknown>): Promise<object | null> {
  const view = payload.view as { private_metadata?: string; title?: { text?: string }; blocks?: unknown; state?: { values?: unknown } } | undefined;
  const meta = readMetadata(view);
  const flow = meta && flowNamed(meta.f);
  // A modal that is not Muster's, or a flow gone since it was opened: nothing to do.
  if (!meta || !flow?.modal) return null;
  const title = view?.title?.text ?? 'Muster';
  const slackUser = (payload.user as { id?: string } | undefined)?.id;
  if (slackUser !== meta.u) return shown(title, texts.notYours);
  const inv: Invocation = {
    organization,
    flow: meta.f,
    called: meta.w,
    slackUser,
    channelId: meta.c,
    record: meta.s && { kind: meta.s.kind, id: meta.s.id },
  };
  try {
    const caller = await callerOfEmail(env, organization, meta.e, meta.n);
    const f = await prepare(env, requestApi(env, signed), signed.slack, flow, inv, caller);
    const result = await flow.modal.submit(f, new Form((view?.state?.values ?? {}) as never));
    if ('errors' in result) return { response_action: 'errors', errors: result.errors };
    return shown(title, result.done);
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 422) {
      const errors = errorsOf(err, inputIds(view?.blocks));
      if (Object.keys(errors).length) return { response_action: 'errors', errors };
    }
    return shown(title, refusalText(err));
  }
}

// ---- answers delivered later ---------------------------------------------------------------------

/** Where an answer goes: the command's or the button's response URL, else an ephemeral message in the channel. */
export async function deliver(api: SlackApi, inv: Invocation, message: ChatMessage): Promise<void> {
  if (inv.responseUrl) return respond(api.outbound, inv.responseUrl, { ...message, response_type: 'ephemeral', replace_original: false });
  if (inv.channelId) await api.postEphemeral(inv.channelId, inv.slackUser, message);
}

export interface CommandJob {
  instance_id: number;
  inv: Invocation;
}

export interface ReplyJob extends CommandJob {
  text: string;
}

/** The flow's work, run later (see CHAT_COMMAND in jobs.ts). */
export const enqueueFlow = (env: ChatEnv, signed: SlackInstance, inv: Invocation) =>
  enqueue(env.db, CHAT_COMMAND, { instance_id: signed.instance.id, inv } satisfies CommandJob);

/** A message to the person, sent later (see CHAT_REPLY in jobs.ts). */
export const enqueueReply = (env: ChatEnv, signed: SlackInstance, inv: Invocation, text: string) =>
  enqueue(env.db, CHAT_REPLY, { instance_id: signed.instance.id, inv, text } satisfies ReplyJob);

/** Runs a flow's `reply` for the invocation and delivers its answer (or why it could not run). */
export async function runReply(env: ChatEnv, api: SlackApi, slack: SlackSettings, inv: Invocation): Promise<void> {
  const flow = flowNamed(inv.flow);
  if (!flow?.reply) return;
  let message: ChatMessage;
  try {
    message = await flow.reply(await prepare(env, api, slack, flow, inv));
  } catch (err) {
    // Slack rate limiting or down: the job is retried (after Slack's Retry-After).
    if (isRetryLater(err) || err instanceof SlackUnavailable) throw err;
    message = { text: refusalText(err) };
  }
  await deliver(api, inv, message);
}
