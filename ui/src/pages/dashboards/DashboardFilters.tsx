// The dashboard's filters, all in the URL so a view is a link: the reported-at window (this month,
// the last 7, 30, 90 or 365 days, or typed dates) and the projects, types and priorities to count.
import { Group, MultiSelect, SegmentedControl, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { SetURLSearchParams } from 'react-router';
import { useAll } from '../../api/list.ts';
import { type FilterValues, paramsWithValues } from '../../lib/filters.ts';
import type { DashboardKind } from './kinds.ts';
import { isDay, PRESETS, paramsWithWindow, type Window } from './window.ts';

const WINDOW_OPTIONS = [
  ...PRESETS.map((key) => ({ value: key, label: key === 'month' ? 'This month' : key === '7' ? 'Last 7 days' : `${key} days` })),
  { value: 'custom', label: 'Custom' },
];

interface Props {
  organization: string;
  kind: DashboardKind;
  params: URLSearchParams;
  setParams: SetURLSearchParams;
  window: Window;
  values: FilterValues;
}

/** The distinct names of a picker list's items (types and priorities repeat across projects). */
const names = (items: { name: string }[] | undefined) => [...new Set((items ?? []).map((i) => i.name))].sort((a, b) => a.localeCompare(b));

export function DashboardFilters({ organization, kind, params, setParams, window, values }: Props) {
  const projects = useAll<{ name: string }>(organization, '/projects');
  const types = useAll<{ name: string }>(organization, kind.typesPath);
  const priorities = useAll<{ name: string }>(organization, kind.prioritiesPath);
  const options: Record<string, string[]> = { project: names(projects.data), type: names(types.data), priority: names(priorities.data) };

  const setWindow = (next: Window) => setParams(paramsWithWindow(params, next), { replace: true });
  const setValues = (key: string, picked: string[]) => setParams(paramsWithValues(kind.filters, params, { ...values, [key]: picked }), { replace: true });

  return (
    <Group align="flex-end" gap="sm" wrap="wrap" role="group" aria-label="Dashboard filters">
      <div>
        <span id="window-label" style={{ display: 'block', fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500 }}>
          Reported in
        </span>
        <SegmentedControl
          aria-labelledby="window-label"
          data={WINDOW_OPTIONS}
          value={window.key}
          onChange={(key) => setWindow(key === 'custom' ? { key, from: window.from, to: window.to } : { key })}
        />
      </div>
      {window.key === 'custom' && (
        <>
          <DayInput label="From" value={window.from} onDay={(from) => setWindow({ ...window, from })} />
          <DayInput label="To" value={window.to} onDay={(to) => setWindow({ ...window, to })} />
        </>
      )}
      {kind.filters.map((def) => (
        <MultiSelect
          key={def.key}
          label={def.label}
          placeholder={values[def.key]?.length ? undefined : 'All'}
          data={[...new Set([...options[def.key], ...(values[def.key] ?? [])])]}
          value={values[def.key] ?? []}
          onChange={(picked) => setValues(def.key, picked)}
          searchable
          clearable
          miw={180}
          maw={320}
        />
      ))}
    </Group>
  );
}

/**
 * A day typed as YYYY-MM-DD: what is typed stays in the field while it is not yet a date, and the
 * window changes once it is one (or once the field is emptied); the URL's day shows when it changes.
 */
function DayInput({ label, value, onDay }: { label: string; value: string | undefined; onDay: (day: string | undefined) => void }) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText((typed) => (isDay(typed) || typed === '' ? (value ?? '') : typed)), [value]);
  const invalid = text !== '' && !isDay(text);
  return (
    <TextInput
      label={label}
      placeholder="YYYY-MM-DD"
      value={text}
      w={140}
      error={invalid && text.length >= 10 ? 'Not a date' : undefined}
      onChange={(e) => {
        const typed = e.currentTarget.value.trim();
        setText(typed);
        if (typed === '') onDay(undefined);
        else if (isDay(typed)) onDay(typed);
      }}
    />
  );
}
