// The case's status moves (transitions.ts): forward ones as buttons, the rest under "Move back".
// Escalating with no incident yet opens the escalate form, closing the resolution form; the API's
// refusal is shown in its words.
import { Anchor, Button, Group, Menu, Modal, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { shapeResolver } from '../../lib/form.ts';
import { IncidentCreate } from '../../../../src/app/ui-shapes.ts';
import { useCaseUpdate, useEscalate } from './case-api.ts';
import { type Transition, transitionsFrom } from './transitions.ts';
import { type Case, type IncidentMinimal, incidentPath, RESOLUTION_REASONS } from './types.ts';

export function CaseStatusActions({ organization, c }: { organization: string; c: Case }) {
  const move = useCaseUpdate(organization, c);
  const [dialog, setDialog] = useState<'escalate' | 'close' | null>(null);
  const [escalated, setEscalated] = useState<IncidentMinimal | null>(null);
  const transitions = transitionsFrom(c.status, { hasIncident: (c.incidents ?? []).length > 0 });
  const act = (t: Transition) => (t.via === 'update' ? move.mutate({ status: t.to }) : setDialog(t.via));
  const forward = transitions.filter((t) => t.direction === 'forward');
  const back = transitions.filter((t) => t.direction === 'back');

  return (
    <Stack gap="xs">
      <Group gap="xs">
        {forward.map((t) => (
          <Button
            key={t.to}
            size="sm"
            variant={t.to === 'Escalated' ? 'filled' : 'light'}
            color={t.to === 'Escalated' ? 'red' : undefined}
            onClick={() => act(t)}
            loading={move.isPending && move.variables?.changes.status === t.to}
          >
            {t.label}
          </Button>
        ))}
        {back.length > 0 && (
          <Menu position="bottom-start">
            <Menu.Target>
              <Button size="sm" variant="default">
                Move back…
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {back.map((t) => (
                <Menu.Item key={t.to} onClick={() => act(t)}>
                  {t.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <ErrorAlert error={move.error} title="The status did not change" />
      {escalated && (
        <Paper withBorder p="sm" role="status" aria-label="Escalated">
          <Text size="sm">
            Escalated: the case is now incident{' '}
            <Anchor component={Link} to={incidentPath(organization, escalated)}>
              {escalated.name ?? escalated.id}
            </Anchor>
            .
          </Text>
        </Paper>
      )}
      <EscalateDialog
        organization={organization}
        c={c}
        opened={dialog === 'escalate'}
        onClose={() => setDialog(null)}
        onEscalated={(incident) => {
          setEscalated(incident);
          setDialog(null);
        }}
      />
      <CloseDialog organization={organization} c={c} opened={dialog === 'close'} onClose={() => setDialog(null)} />
    </Stack>
  );
}

interface EscalateFields {
  title: string;
  description: string;
}

/** The escalate endpoint's incident form: the case's title and description to start from; the rest the API maps from the case. */
function EscalateDialog(props: { organization: string; c: Case; opened: boolean; onClose: () => void; onEscalated: (incident: IncidentMinimal) => void }) {
  const { c } = props;
  const escalate = useEscalate(props.organization, c.id);
  const form = useForm<EscalateFields>({
    resolver: shapeResolver<EscalateFields>(IncidentCreate),
    values: { title: c.title, description: c.description || c.title },
    resetOptions: { keepDirtyValues: true },
  });
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Escalate to an incident" size="lg">
      <form onSubmit={form.handleSubmit((fields) => escalate.mutate({ ...fields, tags: [] }, { onSuccess: props.onEscalated }))} noValidate>
        <Stack>
          <ErrorAlert error={escalate.error} title="The case was not escalated" />
          <TextInput label="Incident title" required {...form.register('title')} error={form.formState.errors.title && 'Enter a title'} />
          <Textarea
            label="Incident description"
            required
            autosize
            minRows={3}
            {...form.register('description')}
            error={form.formState.errors.description && 'Enter a description'}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={escalate.isPending}>
              Escalate
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Closing: the resolution and its reason, saved with the move. */
function CloseDialog(props: { organization: string; c: Case; opened: boolean; onClose: () => void }) {
  const { c } = props;
  const close = useCaseUpdate(props.organization, c);
  const [reason, setReason] = useState<string | null>(c.resolution_reason ?? null);
  const [resolution, setResolution] = useState(c.resolution ?? '');
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Close the case">
      <Stack>
        <ErrorAlert error={close.error} title="The case was not closed" />
        <Select label="Resolution reason" data={[...RESOLUTION_REASONS]} value={reason} onChange={setReason} clearable placeholder="None" />
        <Textarea label="Resolution" autosize minRows={3} value={resolution} onChange={(e) => setResolution(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button
            loading={close.isPending}
            onClick={() => close.mutate({ status: 'Closed', resolution, resolution_reason: reason ?? undefined }, { onSuccess: props.onClose })}
          >
            Close case
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
