// A webhook notification's target is a capability URL: whoever holds it can post to the receiver.
// It is saved only where the outbound policy lets Muster deliver, and read whole by Admins and
// above; anyone else (and any read that nests it) sees its origin.
import { OutboundRefused, outboundFor } from '../../lib/outbound/client.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { invalid } from '../../server/errors.ts';
import { UNRESTRICTED, type Viewer } from '../../server/viewer.ts';
import { originOf } from '../plugin/destinations.ts';

type Fields = Record<string, unknown>;

/** Refuses (422 on `target`) a webhook target the outbound policy refuses now; deliveries are checked again on connect. */
export async function checkWebhookTarget(ctx: Ctx, values: Fields, existing?: Fields): Promise<void> {
  const type = values.type ?? existing?.type;
  const target = values.target ?? existing?.target;
  if (type !== 'webhook' || typeof target !== 'string' || target === existing?.target) return;
  try {
    await outboundFor(ctx.settings.outboundAllow).check({ url: target });
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    throw invalid(
      ['body', 'target'],
      `${err.message}. Muster delivers webhooks only to public addresses, unless the operator allows more.`,
      'value_error.outbound_refused',
    );
  }
}

/** The read's webhook targets as the viewer may see them. */
export function webhookTargetsFor(_db: unknown, items: Fields[], viewer: Viewer): void {
  if (viewer === UNRESTRICTED || atLeast(viewer.role, 'Admin')) return;
  for (const item of items) if (item.type === 'webhook' && typeof item.target === 'string') item.target = originOf(item.target);
}
