// Slack's Block Kit as Muster's chat flows write it: messages, modals and their inputs, and what a
// submitted modal's state holds. An input's block id and action id are the same word, the body
// field it fills (`title`, `incident_type`), so a service's 422 on a field lands on its input.
// Slack's limits are kept here: texts are cut to what each element takes.

export type Block = Record<string, unknown>;

export interface Option {
  text: string;
  value: string;
}

/** `text` cut to `max` characters (Slack refuses longer ones), an ellipsis marking the cut. */
export const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const plain = (text: string, max = 75) => ({ type: 'plain_text', text: cut(text || ' ', max) });

/** Text a reader sees verbatim in mrkdwn: Slack's three control characters escaped. */
export const mrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A link in mrkdwn, or the bare label when there is no address. */
export const link = (url: string | null | undefined, label: string) => (url ? `<${url}|${mrkdwn(label)}>` : mrkdwn(label));

export const header = (text: string): Block => ({ type: 'header', text: plain(text, 150) });
export const section = (text: string): Block => ({ type: 'section', text: { type: 'mrkdwn', text: cut(text, 3000) } });
/** A section of up to ten short labelled fields, two to a row. */
export const fields = (items: string[]): Block => ({ type: 'section', fields: items.slice(0, 10).map((t) => ({ type: 'mrkdwn', text: cut(t, 2000) })) });
export const note = (text: string): Block => ({ type: 'context', elements: [{ type: 'mrkdwn', text: cut(text, 3000) }] });
export const divider: Block = { type: 'divider' };

const option = (o: Option) => ({ text: plain(o.text), value: cut(o.value, 150) });

interface InputOptions {
  optional?: boolean;
  hint?: string;
}

function input(id: string, label: string, element: Block, opts: InputOptions = {}): Block {
  return {
    type: 'input',
    block_id: id,
    label: plain(label, 2000),
    optional: opts.optional ?? false,
    element: { ...element, action_id: id },
    ...(opts.hint ? { hint: plain(opts.hint, 2000) } : {}),
  };
}

export function textInput(id: string, label: string, opts: InputOptions & { initial?: string | null; multiline?: boolean; placeholder?: string } = {}) {
  return input(
    id,
    label,
    {
      type: 'plain_text_input',
      multiline: opts.multiline ?? false,
      max_length: 3000,
      ...(opts.initial ? { initial_value: cut(opts.initial, 3000) } : {}),
      ...(opts.placeholder ? { placeholder: plain(opts.placeholder, 150) } : {}),
    },
    opts,
  );
}

/** A choice among options known now (at most 100, Slack's limit). */
export function staticSelect(id: string, label: string, options: Option[], opts: InputOptions & { initial?: Option | null } = {}) {
  const list = options.slice(0, 100).map(option);
  const initial = opts.initial && list.find((o) => o.value === opts.initial!.value);
  return input(id, label, { type: 'static_select', options: list, ...(initial ? { initial_option: initial } : {}) }, opts);
}

/** A choice whose options Muster sends when the person opens or types in it (the `menu` request). */
export function externalSelect(id: string, label: string, opts: InputOptions & { initial?: Option | null } = {}) {
  return input(id, label, { type: 'external_select', min_query_length: 0, ...(opts.initial ? { initial_option: option(opts.initial) } : {}) }, opts);
}

export function externalMultiSelect(id: string, label: string, opts: InputOptions & { initial?: Option[] } = {}) {
  const initial = (opts.initial ?? []).slice(0, 100).map(option);
  return input(id, label, { type: 'multi_external_select', min_query_length: 0, ...(initial.length ? { initial_options: initial } : {}) }, opts);
}

export const usersSelect = (id: string, label: string, opts: InputOptions = {}) => input(id, label, { type: 'users_select' }, opts);

export const checkboxes = (id: string, label: string, options: Option[], opts: InputOptions = {}) =>
  input(id, label, { type: 'checkboxes', options: options.map(option) }, opts);

/** A date and time, shown and picked in the person's own time zone; read back as an instant. */
export const dateTimePicker = (id: string, label: string, initial: Date, opts: InputOptions = {}) =>
  input(id, label, { type: 'datetimepicker', initial_date_time: Math.floor(initial.getTime() / 1000) }, opts);

export interface ModalView {
  title: string;
  blocks: Block[];
  /** The submit button's label; none: the modal only shows something. */
  submit?: string;
}

/** A modal as views.open takes it; `callbackId` and `metadata` come back with its submission. */
export function modal(view: ModalView, callbackId?: string, metadata?: string): Block {
  return {
    type: 'modal',
    title: plain(view.title, 24),
    close: plain(view.submit ? 'Cancel' : 'Close', 24),
    ...(view.submit ? { submit: plain(view.submit, 24) } : {}),
    blocks: view.blocks.slice(0, 100),
    ...(callbackId ? { callback_id: callbackId } : {}),
    ...(metadata ? { private_metadata: metadata } : {}),
  };
}

// ---- a submitted modal's values ------------------------------------------------------------------

interface StateElement {
  type?: string;
  value?: string | null;
  selected_option?: { value: string; text?: { text?: string } } | null;
  selected_options?: { value: string; text?: { text?: string } }[];
  selected_user?: string | null;
  selected_date_time?: number | null;
}

/** What a submission's `view.state.values` holds, by input. */
export class Form {
  constructor(private readonly values: Record<string, Record<string, StateElement>>) {}

  private element(id: string): StateElement | undefined {
    return this.values?.[id]?.[id];
  }

  /** A text input's value, trimmed; undefined when empty. */
  text(id: string): string | undefined {
    const v = this.element(id)?.value;
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  }

  /** The chosen option's value (a static or external select). */
  choice(id: string): string | undefined {
    return this.element(id)?.selected_option?.value ?? undefined;
  }

  /** A chosen record id (selects carry ids as text). */
  id(id: string): number | undefined {
    const v = this.choice(id);
    return v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : undefined;
  }

  /** The chosen options' values (multi-selects, checkboxes). */
  choices(id: string): string[] {
    return (this.element(id)?.selected_options ?? []).map((o) => o.value);
  }

  user(id: string): string | undefined {
    return this.element(id)?.selected_user ?? undefined;
  }

  dateTime(id: string): Date | undefined {
    const v = this.element(id)?.selected_date_time;
    return typeof v === 'number' ? new Date(v * 1000) : undefined;
  }
}
