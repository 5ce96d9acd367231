// Muster's own document resolver (Dispatch's core one): the project's documents whose search
// filters match the record, and those whose terms occur in it. Muster finds them and lends them
// through the directory; the plugin takes both, each document once.
import { authoredByMuster } from './authored.ts';
import type { DocumentCandidate, DocumentResolverPlugin } from '../types.ts';

export const documentResolverPlugin: DocumentResolverPlugin = {
  slug: 'muster-document-resolver',
  title: 'Muster Plugin - Document Resolver',
  type: 'document-resolver',
  ...authoredByMuster,
  description: 'Links the documents whose search filters or terms match an incident or a case to it.',
  enabledByDefault: true,
  async resolve(subject, directory) {
    const found = [...(await directory.byFilters(subject)), ...(await directory.byTerms(subject))];
    return [...new Map<number, DocumentCandidate>(found.map((d) => [d.id, d])).values()];
  },
};
