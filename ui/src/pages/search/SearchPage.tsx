// The global search (/:organization/search?q=…&type=Incident&type=Case): the header's search box
// lands here. Hits grouped by kind with their counts, each leading to its record; the kinds to search
// are toggles kept in the URL; j/k move through the hits and Enter opens one.
import { Anchor, Badge, Box, Button, Chip, Fieldset, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { useOrganization } from '../../api/session.ts';
import { EmptyState, ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { useShortcuts } from '../../lib/shortcuts.ts';
import { countsOf, groupResults, type HitGroup, queryProblem, SEARCH_KINDS, type SearchAnswer, typesFromParams } from './results.ts';

// A dot of colour beside the word, as in the tables.
const STATUS_COLOR: Record<string, string> = { Active: 'red', New: 'red', Triage: 'orange', Escalated: 'grape', Stable: 'yellow', Closed: 'gray' };

export default function SearchPage() {
  const organization = useOrganization();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const types = useMemo(() => typesFromParams(params), [params]);
  const problem = queryProblem(q);

  const answer = useQuery({
    queryKey: [organization, 'search', q, types],
    queryFn: ({ signal }) => api<SearchAnswer>(orgPath(organization, '/search'), { query: { q, 'type[]': types }, signal }),
    enabled: problem === null,
    placeholderData: keepPreviousData,
  });
  const groups = useMemo(() => groupResults(organization, answer.data, types), [organization, answer.data, types]);
  const counts = countsOf(answer.data);
  const total = groups.reduce((n, g) => n + g.hits.length, 0);

  const setTypes = (picked: string[]) => {
    if (picked.length === 0) return; // at least one kind stays on
    const next = new URLSearchParams(params);
    next.delete('type');
    // All kinds on is the default: the URL names kinds only when some are off.
    if (picked.length < SEARCH_KINDS.length) for (const t of picked) next.append('type', t);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="md">
      <Title order={1}>Search</Title>
      <SearchForm q={q} onSearch={(text) => setParams(withQ(params, text))} />
      <Fieldset legend="Kinds of record" variant="unstyled">
        <Chip.Group multiple value={types} onChange={setTypes}>
          <Group gap="xs">
            {SEARCH_KINDS.map((kind) => (
              <Chip key={kind.type} value={kind.type} size="sm">
                {kind.label}
                {answer.data && types.includes(kind.type) ? ` (${counts[kind.type]})` : ''}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Fieldset>
      {problem === 'empty' ? (
        <EmptyState title="Search every incident, case and record">
          Type words in the box above or in the header (press /). Every word must match; the start of a word is enough: “kra” finds “kraken”.
        </EmptyState>
      ) : problem === 'ascii' ? (
        <EmptyState title="These words cannot be searched">
          Search takes plain letters, digits and punctuation (ASCII) only. Leave out accents and symbols.
        </EmptyState>
      ) : answer.error ? (
        <ErrorAlert error={answer.error} title="The search failed" />
      ) : !answer.data ? (
        <Loading label="Searching" />
      ) : total === 0 ? (
        <EmptyState title={`Nothing matches “${q}”`}>
          Try fewer or shorter words (each word must match, its start is enough), check the spelling, or turn on more kinds of record above.
        </EmptyState>
      ) : (
        <Results groups={groups} total={total} q={q} />
      )}
    </Stack>
  );
}

const withQ = (params: URLSearchParams, q: string) => {
  const next = new URLSearchParams(params);
  next.set('q', q);
  return next;
};

function SearchForm({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(q);
  // The header's box (or back and forward) changed the query: show it here too.
  useEffect(() => setText(q), [q]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) onSearch(text.trim());
  };
  return (
    <search aria-label="Search the organization">
      <form onSubmit={submit}>
        <Group align="flex-end" gap="xs">
          <TextInput label="Words to find" value={text} onChange={(e) => setText(e.currentTarget.value)} style={{ flex: 1, maxWidth: 520 }} />
          <Button type="submit">Search</Button>
        </Group>
      </form>
    </search>
  );
}

function Results({ groups, total, q }: { groups: HitGroup[]; total: number; q: string }) {
  const navigate = useNavigate();
  const flat = useMemo(() => groups.flatMap((g) => g.hits), [groups]);
  const links = useRef(new Map<string, HTMLAnchorElement>());
  const [active, setActive] = useState(-1);
  // New hits: the keyboard starts again from the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the hits change
  useEffect(() => setActive(-1), [flat]);

  const move = (step: number) => {
    if (flat.length === 0) return;
    const next = Math.min(Math.max(active + step, 0), flat.length - 1);
    setActive(next);
    links.current.get(flat[next].id)?.focus();
  };
  useShortcuts({
    j: () => move(1),
    k: () => move(-1),
    Enter: () => {
      const hit = flat[active];
      if (hit?.href) navigate(hit.href);
    },
  });

  return (
    <Stack gap="lg">
      <Text size="sm" aria-live="polite">
        {total} {total === 1 ? 'hit' : 'hits'} for “{q}”. Press j and k to move through them, Enter to open one.
      </Text>
      {groups.map((group) => (
        <Box component="section" key={group.kind.key} aria-labelledby={`hits-${group.kind.key}`}>
          <Group gap="xs" mb="xs">
            <Title order={2} size="h4" id={`hits-${group.kind.key}`}>
              {group.kind.label}
            </Title>
            <Badge variant="light" color="gray" aria-label={`${group.hits.length} ${group.hits.length === 1 ? 'hit' : 'hits'}`}>
              {group.hits.length}
            </Badge>
          </Group>
          <List listStyleType="none" spacing="xs" p={0}>
            {group.hits.map((hit) => {
              const index = flat.indexOf(hit);
              return (
                <List.Item
                  key={hit.id}
                  data-active={index === active || undefined}
                  bg={index === active ? 'var(--mantine-color-default-hover)' : undefined}
                  px="xs"
                  style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                >
                  {hit.href ? (
                    <Anchor
                      component={Link}
                      to={hit.href}
                      fw={500}
                      ref={(el: HTMLAnchorElement | null) => {
                        if (el) links.current.set(hit.id, el);
                        else links.current.delete(hit.id);
                      }}
                      onFocus={() => setActive(index)}
                    >
                      {hit.title}
                    </Anchor>
                  ) : (
                    <Text fw={500}>{hit.title}</Text>
                  )}
                  {hit.detail || hit.status ? (
                    <Group gap={8} wrap="wrap">
                      {hit.status ? (
                        <Badge size="sm" variant="dot" color={STATUS_COLOR[hit.status] ?? 'gray'} tt="none">
                          {hit.status}
                        </Badge>
                      ) : null}
                      {hit.reportedAt ? (
                        <Text size="sm" c="dimmed">
                          reported <Time value={hit.reportedAt} />
                        </Text>
                      ) : null}
                      {hit.detail ? (
                        <Text size="sm" c="dimmed">
                          {hit.detail}
                        </Text>
                      ) : null}
                    </Group>
                  ) : null}
                </List.Item>
              );
            })}
          </List>
        </Box>
      ))}
    </Stack>
  );
}
