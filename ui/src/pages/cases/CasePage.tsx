// One case, found by its name (as the links Muster writes name it) or its id: its summary and edits,
// status moves and escalation, links, signal instances, timeline, documents and tags. Live: the
// record is re-read every few seconds (304 while it has not changed); a save that meets someone
// else's keeps both (SaveNotices).
import { CASE, useRecordId } from '../../api/by-name.ts';
import { Anchor, Badge, Button, Grid, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useRecord } from '../../api/list.ts';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { SaveNotices } from '../../components/SaveNotice.tsx';
import { InlineText } from '../../components/InlineEdit.tsx';
import { Time, useNow } from '../../components/Time.tsx';
import { useCaseUpdate } from './case-api.ts';
import { CaseDetailsForm } from './CaseDetailsForm.tsx';
import { CaseLinks } from './CaseLinks.tsx';
import { CaseStatusActions } from './CaseStatusActions.tsx';
import { CaseTags } from './CaseTags.tsx';
import { CaseTimeline } from './CaseTimeline.tsx';
import { FalsePositive } from './FalsePositive.tsx';
import { SignalInstances } from './SignalInstances.tsx';
import { distinctTitle, SignalSummary } from './SignalSummary.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import type { CaseChanges } from './transitions.ts';
import type { Case } from './types.ts';
import { RecordFiles } from '../files/RecordFiles.tsx';
import { shortLabel } from '../../lib/short-label.ts';

export default function CasePage() {
  const organization = useOrganization();
  const name = useParams().name ?? '';
  const id = useRecordId(organization, CASE, name);
  const record = useRecord<Case>(organization, id.data === undefined ? null : `/cases/${id.data}`);
  const error = id.error ?? record.error;
  if (error)
    return (
      <Stack>
        <Title order={1}>Case {name}</Title>
        <ErrorAlert error={error} title="This case could not be shown" />
        <Anchor component={Link} to={`/${organization}/cases`}>
          Back to the cases
        </Anchor>
      </Stack>
    );
  if (!record.data) return <Loading label="Loading the case" />;
  return (
    <SaveNotices thing="case">
      <CaseView organization={organization} c={record.data} />
    </SaveNotices>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={2} size="h3" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function CaseView({ organization, c }: { organization: string; c: Case }) {
  const stamps: [string, string | null | undefined][] = [
    ['Reported', c.reported_at],
    ['Triage', c.triage_at],
    ['Escalated', c.escalated_at],
    ['Closed', c.closed_at],
  ];
  const now = useNow();
  // How long the case has held its status: since the stamp of that status, or since it was reported.
  const since = { Triage: c.triage_at, Escalated: c.escalated_at, Closed: c.closed_at, Stable: null, New: null }[c.status ?? 'New'] ?? c.reported_at;
  const update = useCaseUpdate(organization, c);
  /** A save of one field, based on the version shown when its edit began. */
  const edit = (changes: (value: string) => CaseChanges) => () => {
    const base = c;
    return (value: string) => update.mutateAsync({ changes: changes(value), base });
  };
  const instances = c.signal_instances ?? [];
  // The cases a signal opens all bear its name: one click names this one apart.
  const named = distinctTitle(instances);
  return (
    <Stack>
      <div>
        <Text size="sm">
          <Anchor component={Link} to={`/${organization}/cases`}>
            Cases
          </Anchor>{' '}
          / {shortLabel('CASE', c)} · {c.name ?? c.id}
        </Text>
        <InlineText label="Title" value={c.title} required begin={edit((title) => ({ title }))}>
          <Title order={1}>{c.title}</Title>
        </InlineText>
        {named && named !== c.title && instances.some((i) => i.signal.name === c.title) ? (
          <Button size="compact-sm" variant="light" mt={4} loading={update.isPending} onClick={() => edit(() => ({ title: named }))()(named)}>
            Name it “{named}”
          </Button>
        ) : null}
        <Group gap="xs" mt="xs">
          <StatusBadge status={c.status} since={since} now={now} />
          <Badge variant="outline" color="gray" autoContrast>
            Priority: {c.case_priority?.name ?? '-'}
          </Badge>
          <Badge variant="outline" color="gray" autoContrast>
            Severity: {c.case_severity?.name ?? '-'}
          </Badge>
          <Badge variant="outline" color="gray" autoContrast>
            Type: {c.case_type?.name ?? '-'}
          </Badge>
          <Badge variant="outline" color={c.visibility === 'Restricted' ? 'red' : 'gray'} autoContrast>
            {c.visibility ?? 'Open'}
          </Badge>
          <Text size="sm">Project {c.project?.display_name ?? c.project?.name}</Text>
        </Group>
      </div>
      <CaseStatusActions organization={organization} c={c} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack>
            {instances.length ? (
              <Section title="Signal">
                <SignalSummary organization={organization} instances={instances} />
                <FalsePositive organization={organization} c={c} />
              </Section>
            ) : null}
            <Section title="Details">
              <CaseDetailsForm organization={organization} c={c} />
            </Section>
            <Section title="Files">
              <RecordFiles organization={organization} record={`cases/${c.id}`} />
            </Section>
            <Section title="Signal instances">
              <SignalInstances organization={organization} instances={c.signal_instances ?? []} />
            </Section>
            <Section title="Timeline">
              <CaseTimeline events={c.events ?? []} />
            </Section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack>
            <Section title="Summary">
              <List size="sm" listStyleType="none" spacing={4}>
                <List.Item>Assignee: {c.assignee?.individual?.email ?? 'nobody'}</List.Item>
                <List.Item>Reporter: {c.reporter?.individual?.email ?? '-'}</List.Item>
                {stamps.map(([label, value]) => (
                  <List.Item key={label}>
                    {label}: <Time value={value} />
                  </List.Item>
                ))}
                {c.ticket?.weblink ? (
                  <List.Item>
                    <Anchor href={c.ticket.weblink} target="_blank" rel="noreferrer">
                      Ticket
                    </Anchor>
                  </List.Item>
                ) : null}
              </List>
            </Section>
            <Paper withBorder p="md" component="section" aria-label="Links">
              <CaseLinks organization={organization} c={c} />
            </Paper>
            <Section title="Tags">
              <CaseTags organization={organization} c={c} />
            </Section>
            <Section title="Documents">
              {c.documents?.length ? (
                <List size="sm">
                  {c.documents.map((d) => (
                    <List.Item key={d.id}>
                      {d.weblink ? (
                        <Anchor href={d.weblink} target="_blank" rel="noreferrer">
                          {d.name}
                        </Anchor>
                      ) : (
                        d.name
                      )}
                      {d.resource_type ? ` (${d.resource_type})` : ''} <Time value={d.created_at} />
                    </List.Item>
                  ))}
                </List>
              ) : (
                <Text size="sm" c="dimmed">
                  No documents. A storage or document plugin adds them to new cases.
                </Text>
              )}
            </Section>
            <Section title="Participants">
              <List size="sm" spacing={4}>
                {(c.participants ?? []).map((p) => (
                  <List.Item key={p.id}>
                    {p.individual?.email ?? p.id}{' '}
                    {(p.participant_roles ?? [])
                      .filter((r) => !r.renounced_at)
                      .map((r) => r.role)
                      .join(', ')}
                  </List.Item>
                ))}
              </List>
            </Section>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
