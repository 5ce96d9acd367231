// Tactical and executive reports: the latest of each, and a form for the next one (started from the
// latest, as the chat dialog does), checked against the API's report shapes.
import { Button, Grid, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import type { TSchema } from '@sinclair/typebox';
import { useForm } from 'react-hook-form';
import { ExecutiveReportCreate, TacticalReportCreate } from '../../../../src/app/ui-shapes.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { shapeResolver } from '../../lib/form.ts';
import { useIncidentAction } from './mutations.ts';
import type { Incident } from './types.ts';

interface ReportKind {
  path: 'tactical' | 'executive';
  title: string;
  shape: TSchema;
  fields: [string, string][];
}

const KINDS: ReportKind[] = [
  {
    path: 'tactical',
    title: 'Tactical report',
    shape: TacticalReportCreate,
    fields: [
      ['conditions', 'Conditions'],
      ['actions', 'Actions'],
      ['needs', 'Needs'],
    ],
  },
  {
    path: 'executive',
    title: 'Executive report',
    shape: ExecutiveReportCreate,
    fields: [
      ['current_status', 'Current status'],
      ['overview', 'Overview'],
      ['next_steps', 'Next steps'],
    ],
  },
];

function ReportForm({ organization, incident, kind }: { organization: string; incident: Incident; kind: ReportKind }) {
  const last = kind.path === 'tactical' ? incident.last_tactical_report : incident.last_executive_report;
  const details = (last?.details ?? {}) as Record<string, unknown>;
  const defaults = Object.fromEntries(kind.fields.map(([key]) => [key, typeof details[key] === 'string' ? details[key] : '']));
  const form = useForm<Record<string, string>>({ resolver: shapeResolver(kind.shape), defaultValues: defaults });
  const send = useIncidentAction<Record<string, string>>(organization, (body) => ({ path: `/incidents/${incident.id}/report/${kind.path}`, body }));
  return (
    <Paper withBorder p="md">
      <form aria-label={`New ${kind.title.toLowerCase()}`} noValidate onSubmit={form.handleSubmit((body) => send.mutate(body))}>
        <Stack gap="xs">
          <Title order={2} size="h3">
            {kind.title}
          </Title>
          <Text size="sm">
            {last ? (
              <>
                Latest: <Time value={last.created_at} />
              </>
            ) : (
              'None yet.'
            )}
          </Text>
          <ErrorAlert error={send.error} title="The report was not created" />
          {kind.fields.map(([key, label]) => (
            <Textarea
              key={key}
              label={label}
              autosize
              minRows={2}
              {...form.register(key)}
              error={form.formState.errors[key] && `Fill in ${label.toLowerCase()}`}
              required
            />
          ))}
          <Button type="submit" loading={send.isPending}>
            Create {kind.title.toLowerCase()}
          </Button>
          {send.isSuccess ? (
            <Text size="sm" role="status">
              Created.
            </Text>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}

export function ReportsSection({ organization, incident }: { organization: string; incident: Incident }) {
  return (
    <Grid>
      {KINDS.map((kind) => (
        <Grid.Col key={kind.path} span={{ base: 12, md: 6 }}>
          <ReportForm organization={organization} incident={incident} kind={kind} />
        </Grid.Col>
      ))}
    </Grid>
  );
}
