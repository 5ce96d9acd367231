// One action for "where are we": the status, priority and severity, and the update itself (a tactical
// report: conditions, actions, needs), posted together. Entering Stable says where the priority goes
// (the project's default, unless another is picked here); Closed asks for the resolution and lists the
// tasks still open.
import { Alert, Button, Group, List, Modal, SegmentedControl, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert, READABLE } from '../../components/Feedback.tsx';
import { type IncidentChanges, useIncidentAction, useIncidentUpdate } from './mutations.ts';
import { useProjectNames } from './names.ts';
import { type Incident, STATUSES, type Status } from './types.ts';

/** What Muster writes as the resolution until someone gives one. */
const BOILERPLATE = /^Description of the actions taken to resolve the incident\.?$/;

interface Props {
  organization: string;
  incident: Incident;
  /** The status it opens on (the one pressed); the incident's own when not given. */
  status: Status;
  onClose: () => void;
}

export function PostUpdate({ organization, incident, status: initial, onClose }: Props) {
  const update = useIncidentUpdate(organization, incident);
  const report = useIncidentAction<Record<string, string>>(organization, (body) => ({ path: `/incidents/${incident.id}/report/tactical`, body }));
  const last = (incident.last_tactical_report?.details ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const [status, setStatus] = useState<Status>(initial);
  const [priority, setPriority] = useState(incident.incident_priority.name);
  const [severity, setSeverity] = useState(incident.incident_severity.name);
  const [conditions, setConditions] = useState('');
  const [actions, setActions] = useState(text(last.actions));
  const [needs, setNeeds] = useState(text(last.needs));
  const [resolution, setResolution] = useState(BOILERPLATE.test(incident.resolution ?? '') ? '' : (incident.resolution ?? ''));
  const [missing, setMissing] = useState(false);
  const projectId = incident.project.id;
  const priorities = useProjectNames(organization, '/incident_priorities', projectId, incident.incident_priority.name);
  const severities = useProjectNames(organization, '/incident_severities', projectId, incident.incident_severity.name);
  const open = incident.tasks.filter((t) => t.status === 'Open');
  const entering = status !== incident.status;
  const lowered = entering && status === 'Stable' && priority === incident.incident_priority.name ? priorities.fallback : undefined;

  const post = async () => {
    if (status === 'Closed' && entering && !resolution.trim()) return setMissing(true);
    const changes: IncidentChanges = {};
    if (entering) changes.status = status;
    if (priority !== incident.incident_priority.name) changes.incident_priority = { name: priority };
    if (severity !== incident.incident_severity.name) changes.incident_severity = { name: severity };
    if (status === 'Closed' && resolution.trim() !== (incident.resolution ?? '')) changes.resolution = resolution.trim();
    try {
      if (Object.keys(changes).length) await update.mutateAsync({ changes });
      if (conditions.trim()) await report.mutateAsync({ conditions: conditions.trim(), actions: actions.trim(), needs: needs.trim() });
      onClose();
    } catch {
      // Shown by the alerts below (and a clash by the page's notice).
    }
  };

  return (
    <Modal opened onClose={onClose} title="Post an update" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        aria-label="Post an update"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void post();
        }}
      >
        <Stack>
          <SegmentedControl aria-label="New status" data={[...STATUSES]} value={status} onChange={(v) => setStatus(v as Status)} />
          <SimpleGrid cols={2}>
            <Select label="Priority" data={priorities.names} value={priority} onChange={(v) => v && setPriority(v)} allowDeselect={false} />
            <Select label="Severity" data={severities.names} value={severity} onChange={(v) => v && setSeverity(v)} allowDeselect={false} />
          </SimpleGrid>
          {entering && status === 'Stable' ? (
            <Alert styles={READABLE} color="blue" variant="light" title="Entering Stable">
              {lowered && lowered !== priority
                ? `The priority goes from ${priority} to ${lowered}, the project's default, unless you pick another priority here.`
                : `The priority stays ${priority}.`}
            </Alert>
          ) : null}
          {entering && status === 'Closed' ? (
            <>
              <Textarea
                label="Resolution"
                description="What was done to resolve it"
                autosize
                minRows={2}
                required
                value={resolution}
                error={missing && !resolution.trim() ? 'Say how it was resolved' : undefined}
                onChange={(e) => setResolution(e.currentTarget.value)}
              />
              {open.length ? (
                <Alert styles={READABLE} color="orange" variant="light" title={`${open.length} ${open.length === 1 ? 'task is' : 'tasks are'} still open`}>
                  <List size="sm">
                    {open.map((t) => (
                      <List.Item key={t.id}>{t.description}</List.Item>
                    ))}
                  </List>
                </Alert>
              ) : null}
            </>
          ) : null}
          <Textarea
            label="Update"
            description="Where things stand (posted as a tactical report; empty posts none)"
            autosize
            minRows={2}
            data-autofocus
            value={conditions}
            onChange={(e) => setConditions(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void post();
            }}
          />
          <SimpleGrid cols={2}>
            <TextInput label="Actions" value={actions} onChange={(e) => setActions(e.currentTarget.value)} />
            <TextInput label="Needs" value={needs} onChange={(e) => setNeeds(e.currentTarget.value)} />
          </SimpleGrid>
          <ErrorAlert error={update.error} title="The incident was not changed" />
          <ErrorAlert error={report.error} title="The update was not posted" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending || report.isPending}>
              Post update
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
