// One dashboard (incidents or cases): filters, summary, and the charts, all computed from the records
// of the window (aggregate.ts) and, for incidents, the API's forecast.
import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { EmptyState, ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { costsBy, countBy, type DashboardRecord, moneyText, monthly } from './aggregate.ts';
import { ChartCard } from './ChartCard.tsx';
import { DashboardFilters } from './DashboardFilters.tsx';
import { listLink } from './list-link.ts';
import { alignForecast } from './forecast.ts';
import type { DashboardKind } from './kinds.ts';
import { Summary } from './Summary.tsx';
import { useDashboard } from './useDashboard.ts';
import { windowText } from './window.ts';

export function RecordDashboard({ kind }: { kind: DashboardKind }) {
  const dashboard = useDashboard(kind);
  const { records, window } = dashboard;
  return (
    <Stack gap="md">
      <DashboardFilters {...dashboard} kind={kind} />
      <Text size="sm" aria-live="polite">
        {records.data ? `${records.data.length} ${kind.plural.toLowerCase()} reported in ${windowText(window)}.` : ''}
      </Text>
      {records.error ? (
        <ErrorAlert error={records.error} title={`The ${kind.plural.toLowerCase()} could not be read`} />
      ) : !records.data ? (
        <Loading label={`Loading the ${kind.plural.toLowerCase()}`} />
      ) : (
        <Charts kind={kind} records={records.data} dashboard={dashboard} />
      )}
    </Stack>
  );
}

function Charts({ kind, records, dashboard }: { kind: DashboardKind; records: DashboardRecord[]; dashboard: ReturnType<typeof useDashboard> }) {
  const noun = kind.plural.toLowerCase();
  const empty = `No ${noun} were reported in ${windowText(dashboard.window)} with these filters. Widen the window or clear a filter.`;
  const charts = useMemo(
    () => ({
      status: countBy(records, 'status', kind.plural, kind.statuses),
      priority: countBy(records, kind.priority, kind.plural),
      type: countBy(records, kind.type, kind.plural),
      severity: countBy(records, kind.severity, kind.plural),
      costByType: costsBy(records, kind.type, kind.costs),
      costByPriority: costsBy(records, kind.priority, kind.costs),
      perMonth: monthly(records, kind.plural, { since: dashboard.window.from, until: dashboard.window.to }),
      costPerMonth: monthly(records, kind.plural, { since: dashboard.window.from, until: dashboard.window.to, costs: kind.costs }),
    }),
    [records, kind, dashboard.window],
  );
  const costPerMonth = useMemo(() => ({ ...charts.costPerMonth, series: charts.costPerMonth.series.slice(1) }), [charts.costPerMonth]);
  const forecast = useMemo(() => alignForecast(dashboard.forecast.data, dashboard.now), [dashboard.forecast.data, dashboard.now]);

  return (
    <Stack gap="md">
      {records.length === 0 && <EmptyState title={`No ${noun} in this window`}>{empty}</EmptyState>}
      <Summary
        kind={kind}
        records={records}
        listOf={(status) => listLink(dashboard.organization, kind, dashboard.values, dashboard.window, status ?? undefined)}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard title={`${kind.plural} by status`} data={charts.status} empty={empty} />
        <ChartCard title={`${kind.plural} by priority`} data={charts.priority} empty={empty} />
        <ChartCard title={`${kind.plural} by type`} data={charts.type} empty={empty} />
        <ChartCard title={`${kind.plural} by severity`} data={charts.severity} empty={empty} />
        <ChartCard title="Costs by type" data={charts.costByType} format={moneyText} empty={`No costs recorded for ${noun} in this window.`} />
        <ChartCard title="Costs by priority" data={charts.costByPriority} format={moneyText} empty={`No costs recorded for ${noun} in this window.`} />
        <ChartCard title={`${kind.plural} reported per month`} data={charts.perMonth} kind="line" empty={empty} />
        <ChartCard title="Costs per month" data={costPerMonth} kind="line" format={moneyText} empty={`No costs recorded for ${noun} in this window.`} />
      </SimpleGrid>
      {kind.forecast && (
        <Group grow align="stretch">
          {dashboard.forecast.error ? (
            <ErrorAlert error={dashboard.forecast.error} title="The forecast could not be read" />
          ) : dashboard.forecast.isPending ? (
            <Loading label="Loading the forecast" />
          ) : (
            <ChartCard
              title="Incident forecast"
              data={forecast}
              kind="line"
              empty="The forecast needs two years of incident history under these filters (it ignores the window). It fills in as incidents are reported."
            />
          )}
        </Group>
      )}
    </Stack>
  );
}
