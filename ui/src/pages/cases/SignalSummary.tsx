// For triage, first on a case a signal opened: which signal, when, the entities it names and the key
// fields of its alert (the top-level values of its raw document), before anything else. The whole
// document stays a click away in the signal instances below.
import { Anchor, Group, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Age, useNow } from '../../components/Time.tsx';
import type { SignalInstance } from './types.ts';

const KEY_FIELDS = 8;

/** The raw document's first plain values (text, numbers, flags), as `key: value`. */
export function keyFields(raw: unknown): [string, string][] {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [];
  return Object.entries(raw as Record<string, unknown>)
    .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v) && String(v) !== '')
    .slice(0, KEY_FIELDS)
    .map(([k, v]) => [k, String(v)]);
}

const newestOf = (instances: SignalInstance[]) => [...instances].sort((a, b) => b.created_at.localeCompare(a.created_at))[0];

/** Fields that name who or what an alert is about, most telling first. */
const IDENTITY = /^(user(name)?|e-?mail|account|principal|host(name)?|device|asset|(src_|source_)?ip)$/i;

/**
 * What sets the newest alert apart from the others of its signal: its first entity, else the key
 * field naming who or what it is about (a user, a host, an address), else the first key field other
 * than the signal's variant.
 */
export function apartOf(instances: SignalInstance[]): string | null {
  const newest = newestOf(instances);
  if (!newest) return null;
  const entity = (newest.entities ?? []).map((e) => e.value).find(Boolean);
  const fields = keyFields(newest.raw);
  const field = (fields.find(([k]) => IDENTITY.test(k)) ?? fields.find(([, v]) => v.includes('@')) ?? fields.find(([k]) => k !== 'variant'))?.[1];
  return entity ?? field ?? null;
}

/** A title that tells this case from the others its signal opened: the signal's name and what sets its alert apart. */
export function distinctTitle(instances: SignalInstance[]): string | null {
  const apart = apartOf(instances);
  return apart ? `${newestOf(instances)!.signal.name}: ${apart}` : null;
}

export function SignalSummary({ organization, instances }: { organization: string; instances: SignalInstance[] }) {
  const now = useNow();
  const newest = newestOf(instances);
  if (!newest) return null;
  const entities = (newest.entities ?? []).map((e) => e.value).filter(Boolean);
  const fields = keyFields(newest.raw);
  return (
    <div>
      <Group gap="xs" mb="xs">
        <Anchor component={Link} to={`/${organization}/signals/${newest.signal.id}`} fw={600}>
          {newest.signal.name}
        </Anchor>
        <Text size="sm">
          received <Age value={newest.created_at} now={now} />
          {instances.length > 1 ? `, ${instances.length} instances` : ''}
        </Text>
      </Group>
      {entities.length ? (
        <Text size="sm" mb="xs">
          <Text span fw={600} size="sm">
            Entities:{' '}
          </Text>
          {entities.join(', ')}
        </Text>
      ) : null}
      {fields.length ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} component="dl" aria-label="Key fields of the alert" m={0}>
          {fields.map(([k, v]) => (
            <Group key={k} gap={6} wrap="nowrap">
              <Text component="dt" size="sm" fw={600}>
                {k}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {v}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
      ) : null}
    </div>
  );
}
