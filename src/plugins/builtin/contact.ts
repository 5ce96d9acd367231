// Muster's own contact plugin (Dispatch's `dispatch-contact`): people and teams are the project's
// own individual and team contacts.
import { authoredByMuster } from './authored.ts';
import type { ContactPlugin } from '../types.ts';

export const contactPlugin: ContactPlugin = {
  slug: 'muster-contact',
  title: 'Muster Plugin - Contact Information Resolver',
  type: 'contact',
  ...authoredByMuster,
  description: "Looks people and teams up in the project's own individual and team contacts.",
  enabledByDefault: true,
  async get(email, directory) {
    return (await directory.individual(email)) ?? (await directory.team(email));
  },
};
