// What each of the four Slack endpoints answers (BEHAVIOR §12), once the request is known to be
// Slack's: a command is acknowledged at once with its ephemeral text (a modal opened first, the rest
// left to a job); an interaction (button, modal submission) and an option request are answered as
// Slack expects; an event is "OK" at once, its work a job.
import { errors } from '../server/errors.ts';
import type { Option } from './blocks.ts';
import { callerOfEmail, type Invocation, Refused } from './flow.ts';
import { BUTTONS, COMMAND_FLOWS, flowNamed } from './flows.ts';
import { isPick, optionsOf, projectOptions } from './options.ts';
import { type ChatEnv, commandOf, eventOf, isObject, payloadOf, type RawRequest, type SlackInstance } from './request.ts';
import { enqueueFlow, enqueueReply, openModal, readMetadata, submitModal } from './run.ts';
import { texts } from './texts.ts';
import { reactionAdded } from './timeline.ts';

const ephemeral = (text: string) => ({ response_type: 'ephemeral', text });

/** `POST .../command`: a slash command. */
export async function command(env: ChatEnv, signed: SlackInstance, req: RawRequest) {
  const body = commandOf(req);
  const name = signed.slack.commands.get(body.command);
  if (!name) return ephemeral(texts.unknownCommand(body.command));
  const flow = COMMAND_FLOWS[name];
  if (!flow) return ephemeral(texts.unavailable(body.command));
  const inv: Invocation = {
    organization: req.organization,
    flow: name,
    called: body.command,
    slackUser: body.user_id,
    channelId: body.channel_id,
    channelName: body.channel_name,
    responseUrl: body.response_url,
    triggerId: body.trigger_id,
    text: body.text.trim(),
  };
  if (flow.modal) {
    const refused = await openModal(env, signed, flow, inv);
    return ephemeral(refused ?? flow.ack);
  }
  await enqueueFlow(env, signed, inv);
  return ephemeral(flow.ack);
}

const RECORD_ID = /^\d{1,9}$/;

/** A button on one of Muster's messages: its modal opened now, or its work left to a job. */
async function blockAction(env: ChatEnv, signed: SlackInstance, organization: string, payload: Record<string, unknown>) {
  const actions = payload.actions;
  if (!Array.isArray(actions) || !isObject(actions[0])) throw errors.badRequest('A block action names its action.');
  const action = actions[0] as { action_id?: string; value?: string };
  const button = typeof action.action_id === 'string' && Object.hasOwn(BUTTONS, action.action_id) ? BUTTONS[action.action_id] : undefined;
  // Other actions (a link button, a select inside a modal) need no answer.
  if (!button) return null;
  if (typeof action.value !== 'string' || !RECORD_ID.test(action.value)) throw errors.badRequest(`The ${action.action_id} button carries a record id.`);
  const user = payload.user as { id?: string } | undefined;
  if (typeof user?.id !== 'string') throw errors.badRequest('A block action names its user.');
  const channel = (payload.channel as { id?: string } | undefined)?.id ?? (payload.container as { channel_id?: string } | undefined)?.channel_id ?? null;
  const inv: Invocation = {
    organization,
    flow: button.flow,
    called: `the ${button.label} button`,
    slackUser: user.id,
    channelId: channel,
    responseUrl: typeof payload.response_url === 'string' ? payload.response_url : null,
    triggerId: typeof payload.trigger_id === 'string' ? payload.trigger_id : null,
    record: { kind: button.kind, id: Number(action.value) },
  };
  const flow = flowNamed(button.flow)!;
  if (flow.modal) {
    const refused = await openModal(env, signed, flow, inv);
    // A button's answer is not shown: a refusal reaches the person as an ephemeral message.
    if (refused) await enqueueReply(env, signed, inv, refused);
  } else {
    await enqueueFlow(env, signed, inv);
  }
  return null;
}

/** `POST .../action`: block actions, view submissions and closings. */
export async function action(env: ChatEnv, signed: SlackInstance, req: RawRequest) {
  const payload = payloadOf(req);
  switch (payload.type) {
    case 'block_actions':
      return blockAction(env, signed, req.organization, payload);
    case 'view_submission':
      if (!isObject(payload.view)) throw errors.badRequest('A view submission carries its view.');
      return submitModal(env, signed, req.organization, payload);
    default:
      // view_closed and interactions Muster does not use (shortcuts, message actions): nothing to do.
      return null;
  }
}

const slackOption = (o: Option) => ({ text: { type: 'plain_text', text: o.text.slice(0, 75) }, value: o.value });

/** `POST .../menu`: the options of an external select in one of Muster's modals. */
export async function menu(env: ChatEnv, _signed: SlackInstance, req: RawRequest) {
  const payload = payloadOf(req);
  if (payload.type !== 'block_suggestion') return { options: [] };
  const pick = typeof payload.action_id === 'string' ? payload.action_id : '';
  const meta = readMetadata(payload.view);
  if (!isPick(pick) || !meta || (payload.user as { id?: string } | undefined)?.id !== meta.u) return { options: [] };
  const caller = await callerOfEmail(env, req.organization, meta.e, meta.n).catch((err) => {
    // Someone no longer a member is offered nothing.
    if (err instanceof Refused) return null;
    throw err;
  });
  if (!caller) return { options: [] };
  // The project: the record's, else the one chosen in the modal, else the default one.
  const state = (payload.view as { state?: { values?: Record<string, Record<string, { selected_option?: { value?: string } }>> } }).state;
  const chosen = Number(state?.values?.project?.project?.selected_option?.value);
  const project = meta.s?.p ?? (Number.isInteger(chosen) && chosen > 0 ? chosen : Number((await projectOptions(caller.ctx)).initial?.value));
  const typed = typeof payload.value === 'string' ? payload.value : '';
  const options = Number.isInteger(project) ? await optionsOf(caller.ctx, pick, project, typed) : [];
  return { options: options.map(slackOption) };
}

/** `POST .../event`: the Events API. */
export async function event(env: ChatEnv, signed: SlackInstance, req: RawRequest) {
  const body = eventOf(req);
  if (body.type === 'url_verification') {
    if (typeof body.challenge !== 'string') throw errors.badRequest('A URL verification carries its challenge.');
    return { challenge: body.challenge };
  }
  if (body.type === 'event_callback' && isObject(body.event) && body.event.type === 'reaction_added') {
    await reactionAdded(env, signed, req.organization, body.event);
  }
  return 'OK';
}
