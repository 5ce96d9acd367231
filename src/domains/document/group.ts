import { and, eq, ne } from 'drizzle-orm';
import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { exists, invalid } from '../../server/errors.ts';
import { visibleRows } from '../../server/visibility.ts';
import { filtersLink } from '../search_filter/group.ts';
import { DOCUMENT_DESCRIPTIONS } from './descriptions.ts';
import { evergreenFields, startEvergreenClock } from './evergreen.ts';
import { DocumentCreate, DocumentPagination, DocumentRead, DocumentUpdate } from './schema.ts';
import { document, documentFilter } from './table.ts';

export const documentTarget: RefTarget = { table: document, model: 'Document', label: 'Document', fields: { id: 'int', name: 'text', resource_type: 'text' } };

/** The project's FAQ document, shown to first-time responders: one per project. */
export const FAQ_DOCUMENT = 'dispatch-incident-reference-faq-document';

/** Weblinks open in people's browsers: only web addresses, never `javascript:` or `data:`. */
export const webAddress = (value: unknown) => {
  if (typeof value !== 'string' || value === '') return true;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The built-in description of a document of `resourceType`, or null for a kind without one. */
export const describeDocument = (resourceType: string | null | undefined) => (resourceType && DOCUMENT_DESCRIPTIONS[resourceType]) || null;

export const documentGroup: GroupDef = {
  path: 'documents',
  tags: ['documents'],
  idParam: 'document_id',
  thing: 'A document',
  model: 'Document',
  tableName: 'document',
  table: document,
  shapes: { create: DocumentCreate, update: DocumentUpdate, read: DocumentRead, pagination: DocumentPagination },
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    resource_id: 'text',
    resource_type: 'text',
    weblink: 'text',
    ...evergreenFields,
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  links: { filters: filtersLink(documentFilter, 'document_id') },
  unique: { document_project_name_key: 'name' },
  // A record's documents are Restricted with it (record_document/table.ts declares the rule).
  visibleTo: (ctx) => visibleRows(document, ctx),
  hooks: {
    async beforeWrite(tx, ctx, values, existing) {
      if (!webAddress(values.weblink)) throw invalid(['weblink'], 'The weblink must be an http or https address.', 'value_error.url.scheme');
      startEvergreenClock(tx, ctx, values, existing);
      const type = 'resource_type' in values ? values.resource_type : existing?.resource_type;
      if (type !== FAQ_DOCUMENT) return;
      const projectId = (existing?.project_id ?? values.project_id) as number;
      const others = await tx
        .select({ id: document.id })
        .from(document)
        .where(and(eq(document.project_id, projectId), eq(document.resource_type, FAQ_DOCUMENT), existing ? ne(document.id, existing.id) : undefined))
        .limit(1);
      if (others.length) throw exists('document', 'FAQ document already defined for this project.');
    },
    afterRead(_db, items) {
      for (const item of items) if (!item.description) item.description = DOCUMENT_DESCRIPTIONS[item.resource_type as string] ?? 'No Description';
    },
  },
};
