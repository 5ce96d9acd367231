// The incident's timeline: filters (kind, source, words; kept in the URL), the CSV export of what is shown, a form to
// add an entry, and the entries, each with its own link (`?tab=timeline#event-<uuid>`). The entry a
// link names is scrolled to and highlighted when the page opens. Custom events (people's entries)
// can be corrected and removed; the events Muster wrote cannot.
import { ActionIcon, Anchor, Badge, Button, Group, MultiSelect, Paper, SegmentedControl, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'react-router';
import { EventCreateMinimal } from '../../../../src/app/ui-shapes.ts';
import { EmptyState, ErrorAlert } from '../../components/Feedback.tsx';
import { parseTime, Time, useNow } from '../../components/Time.tsx';
import { download } from '../../lib/csv.ts';
import { shapeResolver } from '../../lib/form.ts';
import { useIncidentAction } from './mutations.ts';
import {
  cutoffOf,
  distinct,
  eventAnchor,
  eventLink,
  eventOfHash,
  filterTimeline,
  foldSystem,
  kindOf,
  newestFirst,
  paramsWithTimelineFilter,
  type TimelineFilter,
  timelineCsv,
  timelineFilterFromParams,
  WITHIN,
  type Within,
} from './timeline.ts';
import { EntryContent, SystemRun } from './TimelineParts.tsx';
import type { Incident, TimelineEvent } from './types.ts';

const CUSTOM = 'Custom event';

interface NewEvent {
  description: string;
  /** `datetime-local`: the person's own time; empty is now. */
  when: string;
}
const checkEvent = shapeResolver<{ description: string; started_at?: string }>(EventCreateMinimal);
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);
const eventResolver: Resolver<NewEvent> = async (values, context, options) => {
  const result = await checkEvent({ description: values.description.trim(), started_at: toIso(values.when) }, context, options as never);
  return { values: Object.keys(result.errors).length ? {} : values, errors: result.errors } as Awaited<ReturnType<Resolver<NewEvent>>>;
};

export function TimelineSection({ organization, incident }: { organization: string; incident: Incident }) {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => timelineFilterFromParams(params), [params]);
  const setFilter = (change: (f: TimelineFilter) => TimelineFilter) =>
    setParams((prev) => paramsWithTimelineFilter(prev, change(timelineFilterFromParams(prev))), { replace: true });
  const events = incident.events;
  // The words as typed (the URL follows them; reading them back from it could move the caret).
  const [text, setText] = useState(filter.text);
  const now = useNow();
  const cutoff = cutoffOf(filter.within, now, incident.last_tactical_report?.created_at);
  const shown = useMemo(
    () => newestFirst(filterTimeline(events, { ...filter, text })).filter((e) => !cutoff || parseTime(String(e.started_at)) >= cutoff),
    [events, filter, text, cutoff],
  );
  const kinds = useMemo(() => distinct(events.map(kindOf)), [events]);
  const sources = useMemo(() => distinct(events.map((e) => e.source)), [events]);
  const target = eventOfHash(useLocation().hash);
  const name = incident.name ?? String(incident.id);
  // Narrowed by kind or words, every match shows; otherwise the system's runs are folded.
  const rows = filter.kinds.length || text ? shown.map((event) => ({ event })) : foldSystem(shown, target);
  const entry = (e: TimelineEvent) => (
    <Entry key={e.uuid} organization={organization} incident={incident} name={name} event={e} highlighted={e.uuid === target} />
  );

  // A deep link: once its entry is on screen, bring it into view (once per link).
  useEffect(() => {
    if (!target) return;
    const el = document.getElementById(eventAnchor(target));
    if (el) {
      el.scrollIntoView({ block: 'center' });
      el.focus({ preventScroll: true });
    }
  }, [target]);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3">
          Timeline
        </Title>
        <Button variant="default" onClick={() => download(`${name}-timeline.csv`, timelineCsv(shown))} disabled={shown.length === 0}>
          Export {shown.length === events.length ? '' : 'shown entries '}as CSV
        </Button>
      </Group>
      <Group align="flex-end" role="search" aria-label="Filter the timeline">
        <SegmentedControl
          aria-label="When"
          data={Object.entries(WITHIN).map(([value, label]) => ({ value, label }))}
          value={filter.within ?? 'all'}
          onChange={(w) => setFilter((f) => ({ ...f, within: w as Within }))}
        />
        <MultiSelect
          label="Kind"
          placeholder="Any kind"
          data={kinds}
          value={filter.kinds}
          onChange={(k) => setFilter((f) => ({ ...f, kinds: k }))}
          clearable
          w={240}
        />
        <MultiSelect
          label="Source"
          placeholder="Any source"
          data={sources}
          value={filter.sources}
          onChange={(s) => setFilter((f) => ({ ...f, sources: s }))}
          clearable
          w={240}
        />
        <TextInput
          label="Words"
          placeholder="Search the entries"
          value={text}
          onChange={(e) => {
            const words = e.currentTarget.value;
            setText(words);
            setFilter((f) => ({ ...f, text: words }));
          }}
        />
        <Text size="sm" aria-live="polite">
          {shown.length} of {events.length} entries
        </Text>
      </Group>
      <AddEvent organization={organization} incident={incident} />
      {shown.length === 0 ? (
        <EmptyState title={events.length ? 'No entry matches' : 'Nothing on the timeline yet'}>
          {events.length ? 'Clear a filter to see more.' : 'Add what happened with the form above.'}
        </EmptyState>
      ) : (
        <Stack component="ol" aria-label="Timeline entries" gap="xs" p={0} style={{ listStyle: 'none' }}>
          {rows.map((row) => ('system' in row ? <SystemRun key={row.system[0].uuid} events={row.system} entry={entry} /> : entry(row.event)))}
        </Stack>
      )}
    </Stack>
  );
}

function AddEvent({ organization, incident }: { organization: string; incident: Incident }) {
  const add = useIncidentAction<NewEvent>(organization, (v) => ({
    path: `/incidents/${incident.id}/event`,
    body: { description: v.description.trim(), started_at: toIso(v.when) },
  }));
  const form = useForm<NewEvent>({ resolver: eventResolver, defaultValues: { description: '', when: '' } });
  const errors = form.formState.errors as Record<string, unknown>;
  return (
    <Paper withBorder p="sm">
      <form aria-label="Add to the timeline" noValidate onSubmit={form.handleSubmit((v) => add.mutate(v, { onSuccess: () => form.reset() }))}>
        <Stack gap="xs">
          <ErrorAlert error={add.error} title="The entry was not added" />
          <Textarea
            label="What happened"
            autosize
            minRows={2}
            {...form.register('description')}
            error={errors.description ? 'Say what happened' : undefined}
            required
          />
          <Group align="flex-end">
            <TextInput
              label="When (your local time; empty is now)"
              type="datetime-local"
              {...form.register('when')}
              error={errors.started_at ? 'Give a date and time' : undefined}
            />
            <Button type="submit" loading={add.isPending}>
              Add to timeline
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function Entry(props: { organization: string; incident: Incident; name: string; event: TimelineEvent; highlighted: boolean }) {
  const { organization, incident, event } = props;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(event.description);
  const [confirming, setConfirming] = useState(false);
  const save = useIncidentAction<string>(organization, (description) => ({
    path: `/incidents/${incident.id}/event`,
    method: 'PATCH',
    body: { uuid: event.uuid, description },
  }));
  const remove = useIncidentAction<void>(organization, () => ({ path: `/incidents/${incident.id}/event/${event.uuid}`, method: 'DELETE' }));
  const custom = event.type === CUSTOM;
  const link = eventLink(organization, props.name, event.uuid);
  return (
    <Paper
      component="li"
      id={eventAnchor(event.uuid)}
      tabIndex={-1}
      withBorder
      p="sm"
      data-highlighted={props.highlighted || undefined}
      aria-current={props.highlighted ? 'location' : undefined}
      bg={props.highlighted ? 'var(--mantine-color-yellow-light)' : undefined}
      style={{ scrollMarginTop: 72 }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            <Time value={event.started_at} />
          </Text>
          <Badge variant="outline" color="gray" c="var(--mantine-color-text)">
            {kindOf(event)}
          </Badge>
          <Text size="sm">{event.source}</Text>
          {event.owner ? <Text size="sm">· {event.owner}</Text> : null}
        </Group>
        <Group gap={4} wrap="nowrap">
          <Anchor component={Link} to={link} size="sm" aria-label={`Link to the entry of ${event.started_at}`}>
            Link
          </Anchor>
          {custom && !editing ? (
            <>
              <ActionIcon
                variant="subtle"
                aria-label="Edit this entry"
                onClick={() => {
                  setText(event.description);
                  setEditing(true);
                }}
              >
                ✎
              </ActionIcon>
              {confirming ? (
                <Button size="compact-xs" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                  Delete it
                </Button>
              ) : (
                <ActionIcon variant="subtle" color="red" aria-label="Delete this entry" onClick={() => setConfirming(true)}>
                  ✕
                </ActionIcon>
              )}
            </>
          ) : null}
        </Group>
      </Group>
      <ErrorAlert error={save.error ?? remove.error} title="The entry was not changed" />
      {editing ? (
        <Stack gap="xs" mt="xs">
          <Textarea label="What happened" autosize value={text} onChange={(e) => setText(e.currentTarget.value)} />
          <Group>
            <Button size="xs" disabled={!text.trim()} loading={save.isPending} onClick={() => save.mutate(text.trim(), { onSuccess: () => setEditing(false) })}>
              Save
            </Button>
            <Button size="xs" variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <>
          <Text mt={4} style={{ whiteSpace: 'pre-wrap' }}>
            {event.description}
          </Text>
          <EntryContent event={event} />
        </>
      )}
    </Paper>
  );
}
