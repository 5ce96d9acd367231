// What a plugin is: a module that declares who it is, what configuration it takes (a TypeBox /
// JSON Schema object whose secret fields carry `writeOnly: true`) and the functions of its type's
// interface. Built-in plugins live in plugins/builtin/; third-party ones are npm packages named in
// MUSTER_PLUGINS whose default export is a plugin (or a list of them). docs/plugins.md has an example.
//
// Plugins know nothing of Muster's tables: what a function needs of Muster (the record it acts on,
// contacts to look up) is passed to it. Functions that reach an outside system run in a job, never
// in an API request; `env.idempotencyKey` is the job's id, the same on every retry of one job.
import type { TObject } from '@sinclair/typebox';
import type { Outbound } from '../lib/outbound/client.ts';

/**
 * Every plugin type Dispatch knows (BEHAVIOR §11.1), and Muster's `webhook`, spelled as the service
 * summary spells them (`document-resolver`, `participant_group`).
 */
export const PLUGIN_TYPES = [
  'artificial-intelligence',
  'auth-mfa',
  'auth-provider',
  'conference',
  'contact',
  'conversation',
  'definition',
  'document',
  'document-resolver',
  'email',
  'investigation-tooling',
  'metric',
  'monitor',
  'oncall',
  'participant',
  'participant_group',
  'signal-consumer',
  'signal-enrichment',
  'source',
  'storage',
  'tag',
  'task',
  'term',
  'ticket',
  'webhook',
  'workflow',
] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

/** Spellings of a type that other Dispatch releases used, accepted from plugin packages. */
export const PLUGIN_TYPE_ALIASES: Record<string, PluginType> = { 'participant-group': 'participant_group' };

/** A plugin's configuration once validated and decrypted: field name to value. */
export type Configuration = Record<string, unknown>;

export interface PluginLog {
  info(msg: string): void;
  warn(msg: string): void;
}

/** What every plugin function is given besides its own arguments. */
export interface PluginEnv {
  /** Stable across retries of one job: receivers that support it drop a repeated send. */
  idempotencyKey: string;
  /** Base URL of links to records (MUSTER_UI_URL). */
  uiUrl: string;
  /** First part of generated record names (MUSTER_NAME_PREFIX). */
  namePrefix: string;
  log: PluginLog;
  /**
   * The one way out: fetch through the outbound policy (addresses checked on connect, http and
   * https only, no redirects followed, a time limit), and `resolve` for clients that connect
   * themselves (SMTP). Every call to an outside system goes through it.
   */
  outbound: Outbound;
}

/** A record's page in the web UI, as Dispatch's UI routes it: `/<organization>/incidents/<name>`. */
export const recordLink = (uiUrl: string, organizationSlug: string, kind: 'incident' | 'case', name: string) =>
  `${uiUrl.replace(/\/+$/, '')}/${organizationSlug}/${kind}s/${encodeURIComponent(name)}`;

/**
 * Something people do that a plugin observes (Dispatch's plugin events): a cost model prices each
 * occurrence by a participant as some seconds of work. The catalogue lists every loaded plugin's.
 */
export interface PluginEventDeclaration {
  /** Unique across plugins. */
  slug: string;
  name: string;
  description: string;
}

export interface PluginBase<T extends PluginType = PluginType> {
  slug: string;
  title: string;
  type: T;
  version: string;
  author: string;
  author_url: string;
  description: string;
  /** Whether a project may enable more than one instance of it (none of Muster's do). */
  multiple?: boolean;
  /** The configuration it takes; secret fields have `writeOnly: true`. Absent: it takes none. */
  configuration?: TObject;
  /**
   * Whether a new project starts with it enabled: only plugins that need nothing outside Muster
   * (no account, no address, no secret) do.
   */
  enabledByDefault?: boolean;
  /** What it observes people doing, for cost models. */
  events?: PluginEventDeclaration[];
  /**
   * Asks the outside system whether the configuration works (credentials, a project that exists),
   * when an instance is saved enabled; throws ConfigurationRefused naming the field to fix. Absent:
   * only the schema and the outbound policy are checked.
   */
  check?(config: Configuration, env: PluginEnv): Promise<void>;
}

/** A configuration the outside system refuses, found by a plugin's `check`: the field to fix and why. */
export class ConfigurationRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigurationRefused';
  }
}

/** An incident or a case, as plugins see it. */
export interface Subject {
  kind: 'incident' | 'case';
  id: number;
  organization: { id: number; slug: string; name: string };
  project: { id: number; name: string; slug: string };
  name: string | null;
  title: string;
  description: string;
  status: string;
  visibility: string;
  type: string | null;
  priority: string | null;
  severity: string | null;
  /** The commander of an incident, the assignee of a case. */
  owner: string | null;
  reporter: string | null;
  reported_at: string;
  /** The record's page in the web UI. */
  weblink: string;
}

// ---- ticket --------------------------------------------------------------------------------------

export interface Ticket {
  resource_id: string;
  resource_type: string;
  weblink: string;
  /** The record's name, when the ticket system names it. */
  name?: string;
}

/** What a ticket is made from: the record as it is created. */
export type TicketSubject = Pick<Subject, 'kind' | 'id' | 'project' | 'title' | 'description' | 'status' | 'visibility' | 'reported_at'> & {
  organization: { id: number; slug: string };
};

export interface TicketPlugin extends PluginBase<'ticket'> {
  /**
   * Runs in the transaction that creates the record when `inline` (it reaches nothing outside
   * Muster), else in a job after it commits.
   */
  inline?: boolean;
  create(subject: TicketSubject, config: Configuration, env: PluginEnv): Promise<Ticket> | Ticket;
  /**
   * Brings the record's ticket up to date after its title, status, priority or commander (an
   * incident's) or assignee (a case's) changed; runs in a job, retried when it throws. Absent: the
   * ticket is never updated.
   */
  update?(ticket: Ticket, subject: Subject, config: Configuration, env: PluginEnv): Promise<void>;
  /**
   * A ticket for an incident's follow-up task, or null when the configuration keeps tasks out of the
   * tracker; runs in a job after the task is created. Absent: tasks get no ticket.
   */
  createTaskTicket?(task: TaskSubject, config: Configuration, env: PluginEnv): Promise<Ticket | null>;
  /** Brings a task's ticket up to date after the task was resolved or reopened; a ticket of another system is left alone. */
  updateTaskTicket?(ticket: Ticket, task: TaskSubject, config: Configuration, env: PluginEnv): Promise<void>;
}

/** A follow-up task of an incident, as a ticket plugin sees it. */
export interface TaskSubject {
  id: number;
  description: string;
  /** `Open` or `Resolved`. */
  status: string;
  priority: string | null;
  /** E-mails of its owner and assignees. */
  owner: string | null;
  assignees: string[];
  /** Its incident. */
  incident: Subject;
}

// ---- contact and participant resolution -----------------------------------------------------------

export interface Contact {
  email: string;
  fullname?: string | null;
  team?: string | null;
  title?: string | null;
  weblink?: string | null;
}

/** What Muster lends a contact plugin: its own contacts of the project. */
export interface ContactDirectory {
  individual(email: string): Promise<Contact | null>;
  team(email: string): Promise<Contact | null>;
}

export interface ContactPlugin extends PluginBase<'contact'> {
  get(email: string, directory: ContactDirectory, config: Configuration): Promise<Contact | null>;
}

/** Contacts whose search filters match a record (BEHAVIOR §16.3). */
export interface Routed {
  individuals: { id: number; email: string }[];
  teams: { id: number; email: string }[];
  services: { id: number; external_id: string; type: string }[];
}

/** What Muster lends a participant resolver: the contacts whose filters match the record. */
export interface RoutingDirectory {
  matching(subject: Subject): Promise<Routed>;
}

export interface ParticipantPlugin extends PluginBase<'participant'> {
  resolve(subject: Subject, directory: RoutingDirectory, config: Configuration): Promise<Routed>;
}

// ---- on-call ----------------------------------------------------------------------------------

export interface OncallService {
  external_id: string;
  name: string;
}

export interface OncallPlugin extends PluginBase<'oncall'> {
  /** The person on call for the service now, or null. */
  getOncall(service: OncallService, config: Configuration, env: PluginEnv): Promise<Contact | null>;
  /** Pages the service's on-call person about the record. */
  page(service: OncallService, subject: Subject, config: Configuration, env: PluginEnv): Promise<void>;
  /**
   * Resolves the page `page` sent about the record, once it closed; one resolved already (or never
   * sent) is not an error. Absent: the on-call system's people resolve it themselves.
   */
  resolve?(service: OncallService, subject: Subject, config: Configuration, env: PluginEnv): Promise<void>;
}

// ---- messages -----------------------------------------------------------------------------------

export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

export interface EmailPlugin extends PluginBase<'email'> {
  send(message: EmailMessage, config: Configuration, env: PluginEnv): Promise<void>;
}

/** An event delivered to a URL, signed with the instance's shared secret. */
export interface WebhookDelivery {
  url: string;
  event: string;
  payload: unknown;
}

export interface WebhookPlugin extends PluginBase<'webhook'> {
  deliver(delivery: WebhookDelivery, config: Configuration, env: PluginEnv): Promise<void>;
}

// ---- workflows ------------------------------------------------------------------------------------

export const WORKFLOW_STATES = ['Submitted', 'Created', 'Running', 'Completed', 'Failed'] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];

export interface WorkflowArtifact {
  name: string;
  weblink?: string | null;
  resource_id?: string | null;
  resource_type?: string | null;
  description?: string | null;
}

export interface WorkflowRunRequest {
  /** The workflow's `resource_id`: what the workflow system runs. */
  resource_id: string;
  /** Parameters with a value, plus `externalRef` (the subject's page) and `workflowInstanceId`. */
  params: Record<string, string>;
}

export interface WorkflowStatus {
  /** Absent: the workflow system said nothing Muster can read of it, and the run's status stays as it was. */
  status?: WorkflowState;
  /** The run's id in the workflow system, for later status checks. */
  resource_id?: string | null;
  weblink?: string | null;
  artifacts?: WorkflowArtifact[];
}

export interface WorkflowPlugin extends PluginBase<'workflow'> {
  run(request: WorkflowRunRequest, config: Configuration, env: PluginEnv): Promise<WorkflowStatus>;
  /** `resource_id`: the run's id in the workflow system (Muster's run id until it gave one); `workflow_id`: the workflow's `resource_id`. */
  status(run: { resource_id: string; instance_id: number; workflow_id: string }, config: Configuration, env: PluginEnv): Promise<WorkflowStatus>;
}

// ---- conversation (the chat platform) ---------------------------------------------------------------

/** A channel of the chat platform: an incident's (or a case's) own room. */
export interface ChatChannel {
  id: string;
  name: string;
  weblink: string;
}

/**
 * A message: `text` is what every client shows (and notifications read); `blocks` is the richer
 * layout of platforms that have one (Slack's Block Kit), ignored by others.
 */
export interface ChatMessage {
  text: string;
  blocks?: unknown[];
  /** The thread to reply in: its root message's id (Slack's `ts`); absent, a message of the channel. */
  thread?: string;
}

export interface ConversationPlugin extends PluginBase<'conversation'> {
  /** Posts a message to a channel named or identified by a notification's target. */
  send(channel: string, text: string, config: Configuration, env: PluginEnv): Promise<void>;
  /**
   * Creates a channel; a name already taken gets a numbered suffix. `private: true` makes it private
   * whatever the configuration says (a Restricted record's); otherwise the configuration decides.
   */
  createChannel(name: string, opts: { private: boolean; topic?: string }, config: Configuration, env: PluginEnv): Promise<ChatChannel>;
  /** Sets a channel's topic (the line its header shows). */
  setTopic(channelId: string, topic: string, config: Configuration, env: PluginEnv): Promise<void>;
  /** The channel a target names (an id or a #name), or null when there is none the app can see. */
  findChannel(target: string, config: Configuration, env: PluginEnv): Promise<ChatChannel | null>;
  /** Invites people by e-mail; those the platform does not know are returned, not an error. */
  invite(channelId: string, emails: string[], config: Configuration, env: PluginEnv): Promise<{ invited: string[]; unknown: string[] }>;
  /** Posts a message to a channel by id (in a thread when the message names one). */
  post(channelId: string, message: ChatMessage, config: Configuration, env: PluginEnv): Promise<{ ts: string }>;
  /** Archives a channel; one archived already is not an error. */
  archive(channelId: string, config: Configuration, env: PluginEnv): Promise<void>;
}

// ---- storage (a record's folder of files) ---------------------------------------------------------

/** A record's folder, as `storage` in its read: where its files are kept. */
export interface StorageFolder {
  resource_id: string;
  resource_type: string;
  weblink: string;
}

/** A file in a record's folder, without its bytes. */
export interface StoredFile {
  id: string;
  name: string;
  content_type: string;
  size: number;
  created_at: string;
}

/** A file to add: its bytes and what Muster found them to be (never the client's word). */
export interface FileUpload {
  name: string;
  content_type: string;
  content: Buffer;
  /** Who added it (their e-mail). */
  creator: string;
}

/**
 * What Muster lends a storage plugin: a shelf of files in its own database, one per record. A
 * plugin that keeps files elsewhere ignores it; Muster's own keeps everything on it.
 */
export interface FileShelf {
  add(file: FileUpload): Promise<StoredFile>;
  list(): Promise<StoredFile[]>;
  remove(fileId: string): Promise<boolean>;
  /** The file's bytes, in chunks, or null when the folder has no such file. */
  open(fileId: string): Promise<{ file: StoredFile; chunks: AsyncIterable<Buffer> } | null>;
}

export interface StoragePlugin extends PluginBase<'storage'> {
  /** The record's folder, made when its first file is added. */
  createFolder(subject: Subject, config: Configuration, env: PluginEnv): Promise<StorageFolder> | StorageFolder;
  add(folder: StorageFolder, file: FileUpload, shelf: FileShelf, config: Configuration): Promise<StoredFile>;
  list(folder: StorageFolder, shelf: FileShelf, config: Configuration): Promise<StoredFile[]>;
  remove(folder: StorageFolder, fileId: string, shelf: FileShelf, config: Configuration): Promise<boolean>;
  open(folder: StorageFolder, fileId: string, shelf: FileShelf, config: Configuration): ReturnType<FileShelf['open']>;
  /**
   * Gives each of `emails` (people who joined the record) access to its folder. Answers, per
   * e-mail given access, the handle of the access made (for `unshare`), or null when the person
   * could open the folder already: access Muster did not give, which it never takes back. An
   * address the service cannot share with is left out (logged), and asked again at the next change.
   * Absent: the folder is not the service's to share (Muster's own keeps files in its database).
   */
  share?(folder: StorageFolder, emails: string[], config: Configuration, env: PluginEnv): Promise<Record<string, string | null>>;
  /** Takes back access `share` gave (its handles), from people who left the record; access gone already is not an error. */
  unshare?(folder: StorageFolder, handles: string[], config: Configuration, env: PluginEnv): Promise<void>;
}

// ---- conference (a meeting per incident) ---------------------------------------------------------

/** A meeting, as `conference` in an incident's read. */
export interface Conference {
  resource_id: string;
  resource_type: string;
  weblink: string;
  conference_id: string;
  conference_challenge?: string | null;
}

export interface ConferencePlugin extends PluginBase<'conference'> {
  /** A meeting for the record; `participants` are the e-mails of its people now. */
  create(subject: Subject, participants: string[], config: Configuration, env: PluginEnv): Promise<Conference> | Conference;
  /** Ends the meeting (the record closed); one gone already is not an error. */
  delete(conference: Conference, config: Configuration, env: PluginEnv): Promise<void> | void;
}

// ---- participant groups (a record's mailing groups) -----------------------------------------------

/** Dispatch's two groups of an incident: its people (tactical) and those who follow it (notifications). */
export type GroupKind = 'tactical' | 'notifications';

/** A group as reads show it (GroupRead, without Muster's id). */
export interface ParticipantGroup {
  name: string;
  email: string;
  resource_id: string | null;
  resource_type: string | null;
  weblink: string | null;
  description: string | null;
}

export interface ParticipantGroupPlugin extends PluginBase<'participant_group'> {
  /** Makes the record's group of a kind. */
  create(subject: Subject, kind: GroupKind, config: Configuration, env: PluginEnv): Promise<ParticipantGroup> | ParticipantGroup;
  /**
   * Where a message to the group goes, given the e-mails of its members now (the record's people for
   * the tactical group, and its subscribers for notifications): Muster's own groups keep no list
   * and answer the members themselves; a mailing-list service answers the group's own address.
   */
  recipients(group: ParticipantGroup, members: string[], config: Configuration, env: PluginEnv): Promise<string[]> | string[];
  /**
   * Brings the group's member list in line with `members` (as for `recipients`), when the record's
   * people change. Absent: the group keeps no list of its own to bring in line.
   */
  members?(group: ParticipantGroup, members: string[], config: Configuration, env: PluginEnv): Promise<void>;
}

// ---- documents ------------------------------------------------------------------------------------

/** What a document of a record is for, as Dispatch's `resource_type` strings say it. */
export const RECORD_DOCUMENT_TYPES = {
  incident: 'dispatch-incident-document',
  case: 'dispatch-case-document',
  review: 'dispatch-incident-review-document',
} as const;
export type RecordDocumentKind = keyof typeof RECORD_DOCUMENT_TYPES;

/** A document a plugin keeps, as Muster links it in a record's `documents`. */
export interface KeptDocument {
  name: string;
  resource_id: string;
  resource_type: string;
  weblink: string;
  /** The text, for a plugin whose documents Muster stores (Markdown); absent where the document lives outside. */
  content?: string;
}

/** What a document is made from: the template's text and the values its `{{placeholders}}` take. */
export interface DocumentRequest {
  kind: RecordDocumentKind;
  subject: Subject;
  /** The template (Markdown), the project's or Muster's own. */
  template: string;
  /** Placeholder name to text: `{{summary}}` becomes `values.summary`. */
  values: Record<string, string>;
}

export interface DocumentPlugin extends PluginBase<'document'> {
  /** Runs in the transaction that writes the record when `inline` (it reaches nothing outside Muster), else in a job. */
  inline?: boolean;
  /** Makes a record's document from a template. */
  create(request: DocumentRequest, config: Configuration, env: PluginEnv): Promise<KeptDocument> | KeptDocument;
  /** Replaces the document's placeholders still unfilled with newer values (a review refreshed from its record). */
  update(document: KeptDocument, values: Record<string, string>, config: Configuration, env: PluginEnv): Promise<KeptDocument> | KeptDocument;
  /** Stops edits: a Closed record's documents, where the configuration says so. Returns whether it did. */
  makeReadOnly(document: KeptDocument, config: Configuration, env: PluginEnv): Promise<boolean> | boolean;
  /** Removes the document from the system that keeps it; one already gone is not an error. */
  delete(document: KeptDocument, config: Configuration, env: PluginEnv): Promise<void> | void;
}

/** A project's document that may suit a record. */
export interface DocumentCandidate {
  id: number;
  name: string;
  weblink: string | null;
}

/** What Muster lends a document resolver: the project's documents whose search filters, or terms, match the record. */
export interface DocumentDirectory {
  byFilters(subject: Subject): Promise<DocumentCandidate[]>;
  byTerms(subject: Subject): Promise<DocumentCandidate[]>;
}

export interface DocumentResolverPlugin extends PluginBase<'document-resolver'> {
  /** The project's documents relevant to the record: Muster links them in its `documents`. */
  resolve(subject: Subject, directory: DocumentDirectory, config: Configuration): Promise<DocumentCandidate[]>;
}

/** Any plugin Muster knows how to call, by type. */
export type Plugin =
  | TicketPlugin
  | ContactPlugin
  | ParticipantPlugin
  | OncallPlugin
  | EmailPlugin
  | WebhookPlugin
  | WorkflowPlugin
  | ConversationPlugin
  | StoragePlugin
  | ConferencePlugin
  | ParticipantGroupPlugin
  | DocumentPlugin
  | DocumentResolverPlugin
  | PluginBase<
      Exclude<
        PluginType,
        | 'ticket'
        | 'contact'
        | 'participant'
        | 'oncall'
        | 'email'
        | 'webhook'
        | 'workflow'
        | 'conversation'
        | 'storage'
        | 'conference'
        | 'participant_group'
        | 'document'
        | 'document-resolver'
      >
    >;

/** A plugin of type T, narrowed. */
export type PluginOf<T extends PluginType> = Extract<Plugin, { type: T }>;
