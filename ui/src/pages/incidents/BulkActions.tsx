// Actions on the selected incidents: change status, priority or commander (each incident read and
// PUT back changed), or delete them (Admins). Failures are listed per incident with the API's words;
// the incidents that failed stay selected.
import { Alert, Button, Group, List, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useAll } from '../../api/list.ts';
import { type BulkChange, type BulkFailure, deleteStep, eachIncident, updateStep } from './bulk.ts';
import { INCIDENT_STATUSES } from './incident-filters.ts';
import type { Assessment } from './types.ts';

export interface BulkActionsProps {
  organization: string;
  ids: number[];
  nameOf: (id: number) => string;
  isAdmin: boolean;
  /** After a run: the ids that failed (they stay selected). */
  onDone: (failed: number[]) => void;
}

type Action = { kind: 'update'; change: BulkChange; what: string } | { kind: 'delete'; what: string };

export function BulkActions({ organization, ids, nameOf, isAdmin, onDone }: BulkActionsProps) {
  const priorities = useAll<Assessment>(organization, '/incident_priorities');
  const priorityNames = [...new Set((priorities.data ?? []).map((p) => p.name))];
  const [progress, setProgress] = useState(0);
  const [outcome, setOutcome] = useState<{ what: string; failures: BulkFailure[]; total: number } | null>(null);
  const [commanderOpen, setCommanderOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const run = useMutation({
    mutationFn: async (action: Action) => {
      setProgress(0);
      const step = action.kind === 'delete' ? deleteStep(organization) : updateStep(organization, action.change);
      const failures = await eachIncident(ids, nameOf, step, setProgress);
      return { what: action.what, failures, total: ids.length };
    },
    onSuccess: (result) => {
      setOutcome(result);
      onDone(result.failures.map((f) => f.id));
    },
  });
  const apply = (action: Action) => {
    setOutcome(null);
    run.mutate(action);
  };

  const count = ids.length;
  return (
    <Stack gap="xs" mb="sm">
      {count > 0 ? (
        <Group gap="xs" role="toolbar" aria-label="Bulk actions">
          <Text size="sm" fw={600}>
            {count} selected
          </Text>
          <Menu>
            <Menu.Target>
              <Button size="xs" variant="default" disabled={run.isPending}>
                Set status
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {INCIDENT_STATUSES.map((status) => (
                <Menu.Item key={status} onClick={() => apply({ kind: 'update', change: { status }, what: `Status set to ${status}` })}>
                  {status}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Menu>
            <Menu.Target>
              <Button size="xs" variant="default" disabled={run.isPending}>
                Set priority
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {priorityNames.map((name) => (
                <Menu.Item key={name} onClick={() => apply({ kind: 'update', change: { incident_priority: { name } }, what: `Priority set to ${name}` })}>
                  {name}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Button size="xs" variant="default" disabled={run.isPending} onClick={() => setCommanderOpen(true)}>
            Set commander
          </Button>
          {isAdmin ? (
            <Button size="xs" color="red" disabled={run.isPending} onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
          ) : null}
          {run.isPending ? (
            <Text size="sm" role="status">
              Working: {progress} of {count}
            </Text>
          ) : null}
        </Group>
      ) : null}
      {outcome ? <Outcome {...outcome} onClose={() => setOutcome(null)} /> : null}
      <CommanderModal
        opened={commanderOpen}
        count={count}
        onClose={() => setCommanderOpen(false)}
        onSubmit={(email) => {
          setCommanderOpen(false);
          apply({ kind: 'update', change: { commander: { individual: { email } } }, what: `Commander set to ${email}` });
        }}
      />
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title={`Delete ${count} incident${count === 1 ? '' : 's'}?`}>
        <Stack>
          <Text>This removes the incidents and everything recorded in them. It cannot be undone.</Text>
          <Group justify="end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirmDelete(false);
                apply({ kind: 'delete', what: 'Deleted' });
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

// The title in the text colour: a light alert's coloured title is below 4.5:1 on its tinted background.
const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

function Outcome({ what, failures, total, onClose }: { what: string; failures: BulkFailure[]; total: number; onClose: () => void }) {
  const done = total - failures.length;
  if (failures.length === 0)
    return (
      <Alert color="green" variant="light" title={what} styles={READABLE_TITLE} withCloseButton closeButtonLabel="Dismiss" onClose={onClose} role="status">
        {done} incident{done === 1 ? '' : 's'} changed.
      </Alert>
    );
  return (
    <Alert
      color="red"
      variant="light"
      title={`${what}: ${failures.length} of ${total} failed`}
      styles={READABLE_TITLE}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      role="alert"
    >
      <List size="sm">
        {failures.map((f) => (
          <List.Item key={f.id}>
            <b>{f.name}</b>: {f.detail}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

function CommanderModal(props: { opened: boolean; count: number; onClose: () => void; onSubmit: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) props.onSubmit(email.trim());
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={`Commander of ${props.count} incident${props.count === 1 ? '' : 's'}`}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Commander's email" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} data-autofocus />
          <Group justify="end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!email.trim()}>
              Set commander
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
