// Muster's own ticket plugin: names each incident and case `<prefix>-<organization>-<project>-<id>`
// and points its ticket at the record's page in the web UI (MUSTER_UI_URL). It reaches nothing
// outside Muster, so it runs in the transaction that creates the record and the answer shows both.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from './authored.ts';
import { recordLink, type TicketPlugin } from '../types.ts';

export const ticketPlugin: TicketPlugin = {
  slug: 'muster-ticket',
  title: 'Muster Plugin - Ticket Management',
  type: 'ticket',
  ...authoredByMuster,
  description: "Names incidents and cases and links each to its page in Muster's web UI.",
  enabledByDefault: true,
  inline: true,
  configuration: Type.Object(
    {
      prefix: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'First part of generated names (default MUSTER_NAME_PREFIX)' }),
      ),
    },
    { additionalProperties: false },
  ),
  create(subject, config, env) {
    const prefix = typeof config.prefix === 'string' && config.prefix ? config.prefix : env.namePrefix;
    const name = `${prefix}-${subject.organization.slug}-${subject.project.slug}-${subject.id}`;
    return { name, resource_id: name, resource_type: `muster-${subject.kind}`, weblink: recordLink(env.uiUrl, subject.organization.slug, subject.kind, name) };
  },
};
