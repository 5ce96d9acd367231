// The case's tags: shown, and replaced through the update (the API sets the list it is sent).
import { Badge, Button, Group, MultiSelect, Text } from '@mantine/core';
import { useState } from 'react';
import { useAll } from '../../api/list.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { projectFilter, useCaseUpdate } from './case-api.ts';
import type { Case, Tag } from './types.ts';

const tagLabel = (t: Tag) => (t.tag_type?.name ? `${t.tag_type.name}: ${t.name ?? t.id}` : (t.name ?? String(t.id)));

export function CaseTags({ organization, c }: { organization: string; c: Case }) {
  const [draft, setDraft] = useState<string[] | null>(null);
  const tags = useAll<Tag>(organization, '/tags', { filter: projectFilter(c.project?.id) });
  const save = useCaseUpdate(organization, c);
  const current = c.tags ?? [];
  if (draft === null)
    return (
      <Group gap="xs">
        {current.length ? (
          current.map((t) => (
            <Badge key={t.id} variant="light" color="gray" autoContrast>
              {tagLabel(t)}
            </Badge>
          ))
        ) : (
          <Text size="sm" c="dimmed">
            No tags.
          </Text>
        )}
        <Button size="xs" variant="default" onClick={() => setDraft(current.map((t) => String(t.id)))}>
          Edit tags
        </Button>
      </Group>
    );
  const options = new Map<number, Tag>();
  for (const t of [...current, ...(tags.data ?? [])]) options.set(t.id, t);
  return (
    <>
      <ErrorAlert error={save.error} title="The tags were not saved" />
      <MultiSelect
        label="Tags"
        searchable
        data={[...options.values()].map((t) => ({ value: String(t.id), label: tagLabel(t) }))}
        value={draft}
        onChange={setDraft}
        nothingFoundMessage="No such tag in this project (tags are made in the settings)"
      />
      <Group justify="flex-end" mt="xs">
        <Button size="xs" variant="default" onClick={() => setDraft(null)}>
          Cancel
        </Button>
        <Button size="xs" loading={save.isPending} onClick={() => save.mutate({ tags: draft.map(Number) }, { onSuccess: () => setDraft(null) })}>
          Save tags
        </Button>
      </Group>
    </>
  );
}
