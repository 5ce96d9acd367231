// The API's read shapes of signals, as types only (no code of the server's shapes is bundled for them).
import type { Static } from '@sinclair/typebox';
import type { SignalFilterRead, SignalInstanceRead, SignalRead } from '../../../../src/app/ui-shapes.ts';

export type Signal = Static<typeof SignalRead>;
export type SignalFilter = Static<typeof SignalFilterRead>;
export type SignalInstance = Static<typeof SignalInstanceRead>;

/** A record named in a body or picked in a form: by id, with its name for the screen. */
export interface Ref {
  id: number;
  name: string;
}

/** Project-scoped records the pickers offer. */
export interface Named {
  id: number;
  name: string;
  project?: { id: number; name: string } | null;
}

export const refOf = (r: { id: number; name?: string | null } | null | undefined): Ref | null => (r ? { id: r.id, name: r.name ?? String(r.id) } : null);
