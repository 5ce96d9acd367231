// Muster's own document plugin: a record's incident (or case) document and its post-incident review
// are Markdown kept in Muster's database, made from the project's templates and edited in the web
// UI. It reaches nothing outside Muster, so it runs in the transaction that writes the record.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from './authored.ts';
import { RECORD_DOCUMENT_TYPES, type DocumentPlugin, type KeptDocument } from '../types.ts';

const TITLES = { incident: 'Incident document', case: 'Case document', review: 'Post-incident review' } as const;

/** `{{name}}` placeholders (letters, digits, underscores), as the templates write them. */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The template with each placeholder that has a value replaced; placeholders without one stay. */
export const fillTemplate = (template: string, values: Record<string, string>) =>
  template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));

export const documentPlugin: DocumentPlugin = {
  slug: 'muster-document',
  title: 'Muster Plugin - Documents',
  type: 'document',
  ...authoredByMuster,
  description: "Keeps incident, case and review documents in Muster, written in Markdown from the project's templates.",
  enabledByDefault: true,
  inline: true,
  configuration: Type.Object(
    {
      read_only_when_closed: Type.Optional(
        Type.Boolean({ default: true, description: "Whether a record's documents stop taking edits once it is Closed (reopening it does not undo this)" }),
      ),
    },
    { additionalProperties: false },
  ),
  create({ kind, subject, template, values }) {
    const resource_type = RECORD_DOCUMENT_TYPES[kind];
    return {
      name: `${TITLES[kind]}: ${subject.name ?? `${subject.kind} ${subject.id}`}`,
      resource_id: `${subject.kind}:${subject.id}:${kind}`,
      resource_type,
      weblink: `${subject.weblink}/documents/${kind}`,
      content: fillTemplate(template, values),
    };
  },
  update(document, values): KeptDocument {
    return { ...document, content: fillTemplate(document.content ?? '', values) };
  },
  makeReadOnly(_document, config) {
    return config.read_only_when_closed !== false;
  },
  delete() {},
};
