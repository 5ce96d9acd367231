// The record a chat channel belongs to: what the chat platform's requests (a command typed in a
// channel, a reaction on one of its messages) act on. `conversation->>'channel_id'` is indexed per
// organization for this. An incident has a channel of its own; a case has one only when its
// `thread_id` is null (a case kept in a thread of a shared channel is reached by its message's
// buttons, never by the channel).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { caseTable, incident } from './table.ts';

export interface ChannelRecord {
  kind: 'incident' | 'case';
  id: number;
  project_id: number;
}

export async function recordOfChannel(db: Executor, organizationId: number, channelId: string): Promise<ChannelRecord | undefined> {
  const [inc] = await db
    .select({ id: incident.id, project_id: incident.project_id })
    .from(incident)
    .where(and(eq(incident.organization_id, organizationId), sql`${incident.conversation}->>'channel_id' = ${channelId}`))
    .orderBy(incident.id)
    .limit(1);
  if (inc) return { kind: 'incident', ...inc };
  const [found] = await db
    .select({ id: caseTable.id, project_id: caseTable.project_id })
    .from(caseTable)
    .where(
      and(
        eq(caseTable.organization_id, organizationId),
        sql`${caseTable.conversation}->>'channel_id' = ${channelId}`,
        isNull(sql`${caseTable.conversation}->>'thread_id'`),
      ),
    )
    .orderBy(caseTable.id)
    .limit(1);
  return found ? { kind: 'case', ...found } : undefined;
}
