// A case's related and duplicate cases and its incidents: shown as links, edited with pickers, saved
// in one update (the API replaces each list with what is sent).
import { Anchor, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { useCaseUpdate } from './case-api.ts';
import { type PickedRecord, RecordsPicker } from './RecordsPicker.tsx';
import { type Case, casePath, incidentPath } from './types.ts';

type Kind = 'related' | 'duplicates' | 'incidents';

const LABELS: Record<Kind, string> = { related: 'Related cases', duplicates: 'Duplicate cases', incidents: 'Linked incidents' };

export function CaseLinks({ organization, c }: { organization: string; c: Case }) {
  const [editing, setEditing] = useState(false);
  const current = (kind: Kind): PickedRecord[] => (c[kind] ?? []).map((r) => ({ id: r.id, name: r.name, title: r.title }));
  const [draft, setDraft] = useState<Record<Kind, PickedRecord[]>>({ related: [], duplicates: [], incidents: [] });
  const save = useCaseUpdate(organization, c);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the draft starts from the case when editing starts
  useEffect(() => {
    if (editing) setDraft({ related: current('related'), duplicates: current('duplicates'), incidents: current('incidents') });
  }, [editing]);

  const linkTo = (kind: Kind, r: PickedRecord) => (kind === 'incidents' ? incidentPath(organization, r) : casePath(organization, r));
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Links
        </Title>
        {!editing && (
          <Button variant="default" size="xs" onClick={() => setEditing(true)}>
            Edit links
          </Button>
        )}
      </Group>
      {(['related', 'duplicates', 'incidents'] as const).map((kind) =>
        editing ? (
          <RecordsPicker
            key={kind}
            organization={organization}
            path={kind === 'incidents' ? '/incidents' : '/cases'}
            label={LABELS[kind]}
            value={draft[kind]}
            onChange={(records) => setDraft((d) => ({ ...d, [kind]: records }))}
            exclude={kind === 'incidents' ? undefined : c.id}
          />
        ) : (
          <div key={kind}>
            <Text fw={600} size="sm">
              {LABELS[kind]}
            </Text>
            {current(kind).length ? (
              <List size="sm">
                {current(kind).map((r) => (
                  <List.Item key={r.id}>
                    <Anchor component={Link} to={linkTo(kind, r)}>
                      {r.name ?? r.id}
                    </Anchor>
                    {r.title ? ` ${r.title}` : ''}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                None. Use "Edit links" to add some.
              </Text>
            )}
          </div>
        ),
      )}
      <ErrorAlert error={save.error} title="The links were not saved" />
      {editing && (
        <Group justify="flex-end">
          <Button variant="default" size="xs" onClick={() => setEditing(false)}>
            Cancel
          </Button>
          <Button
            size="xs"
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                { related: draft.related.map((r) => r.id), duplicates: draft.duplicates.map((r) => r.id), incidents: draft.incidents.map((r) => r.id) },
                { onSuccess: () => setEditing(false) },
              )
            }
          >
            Save links
          </Button>
        </Group>
      )}
    </Stack>
  );
}
