// The dashboard's filters, all in the URL so a view is a link: the reported-at window (the last 30,
// 90 or 365 days, or custom dates) and the projects, types and priorities to count.
import { Group, MultiSelect, SegmentedControl, TextInput } from '@mantine/core';
import type { SetURLSearchParams } from 'react-router';
import { useAll } from '../../api/list.ts';
import { type FilterValues, paramsWithValues } from '../../lib/filters.ts';
import type { DashboardKind } from './kinds.ts';
import { PRESETS, paramsWithWindow, type Window } from './window.ts';

const WINDOW_OPTIONS = [...PRESETS.map((days) => ({ value: days, label: `${days} days` })), { value: 'custom', label: 'Custom' }];

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
          <TextInput type="date" label="From" value={window.from ?? ''} onChange={(e) => setWindow({ ...window, from: e.currentTarget.value || undefined })} />
          <TextInput type="date" label="To" value={window.to ?? ''} onChange={(e) => setWindow({ ...window, to: e.currentTarget.value || undefined })} />
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
