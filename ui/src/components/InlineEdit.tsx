// A field shown as text and edited where it stands: "Edit" turns it into an input, Enter (Ctrl+Enter
// in a long text) or Save saves that field alone, Escape leaves it as it was. `begin` is called when
// the edit starts and answers the save, so a save is based on the version the person was looking at.
import { ActionIcon, Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { SaveConflict } from '../api/save.ts';
import { PersonPicker } from './PeoplePicker.tsx';

type Save = (value: string) => Promise<unknown>;

export function InlineText(props: {
  label: string;
  value: string;
  begin: () => Save;
  multiline?: boolean;
  required?: boolean;
  /** How the value reads when not edited (default: the text). */
  children?: ReactNode;
}) {
  const { label, value, begin, multiline, required } = props;
  const [editing, setEditing] = useState<{ save: Save; draft: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (!editing) {
    return (
      <Group gap={6} wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>{props.children ?? <Text style={{ whiteSpace: 'pre-wrap' }}>{value || '-'}</Text>}</div>
        <ActionIcon variant="subtle" color="gray" aria-label={`Edit the ${label.toLowerCase()}`} onClick={() => setEditing({ save: begin(), draft: value })}>
          ✎
        </ActionIcon>
      </Group>
    );
  }
  const submit = async () => {
    const draft = editing.draft.trim();
    if (required && !draft) return setError(`Give the ${label.toLowerCase()}`);
    if (draft === value.trim()) return setEditing(null);
    setSaving(true);
    try {
      await editing.save(draft);
      setEditing(null);
      setError(null);
    } catch (e) {
      // Both changed this field: the page's notice shows the two values and the choice.
      if (e instanceof SaveConflict) return setEditing(null);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };
  const keys = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') setEditing(null);
    if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };
  const field = {
    label,
    value: editing.draft,
    error,
    autoFocus: true,
    onKeyDown: keys,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setEditing({ ...editing, draft: e.currentTarget.value }),
  };
  return (
    <Stack gap={6}>
      {multiline ? <Textarea autosize minRows={2} {...field} /> : <TextInput {...field} />}
      <Group gap="xs">
        <Button size="xs" loading={saving} onClick={submit}>
          Save
        </Button>
        <Button size="xs" variant="default" onClick={() => setEditing(null)}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** A choice saved as soon as it is made. */
export function InlineSelect(props: { label: string; value: string; data: readonly string[]; begin: () => Save }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <Select
      size="xs"
      label={props.label}
      data={[...new Set([props.value, ...props.data])].filter(Boolean)}
      value={props.value || null}
      allowDeselect={false}
      error={error}
      onChange={(v) => {
        if (!v || v === props.value) return;
        props
          .begin()(v)
          .then(
            () => setError(null),
            (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
          );
      }}
    />
  );
}

/** A person edited where they stand: ✎ opens the people picker, a pick saves at once, Escape leaves it. */
export function InlinePerson(props: { organization: string; label: string; value: string; begin: () => Save; children?: ReactNode }) {
  const [save, setSave] = useState<Save | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!save) {
    return (
      <Group gap={6} wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>{props.children ?? <Text size="sm">{props.value || 'Nobody'}</Text>}</div>
        <ActionIcon variant="subtle" color="gray" aria-label={`Change the ${props.label.toLowerCase()}`} onClick={() => setSave(() => props.begin())}>
          ✎
        </ActionIcon>
      </Group>
    );
  }
  return (
    <PersonPicker
      organization={props.organization}
      label={props.label}
      size="xs"
      value=""
      autoFocus
      error={error}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setSave(null);
      }}
      onChange={(email) => {
        if (!email || email === props.value) return setSave(null);
        save(email).then(
          () => {
            setSave(null);
            setError(null);
          },
          (e: unknown) => (e instanceof SaveConflict ? setSave(null) : setError(e instanceof Error ? e.message : String(e))),
        );
      }}
    />
  );
}
