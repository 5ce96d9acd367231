// The dashboard's numbers: how many records, per status, the mean and median spans, the costs. A count
// is a link to the table of the records it counts.
import { Box, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type DashboardRecord, durationStats, durationText, labelOf, moneyText, totalOf } from './aggregate.ts';
import type { DashboardKind } from './kinds.ts';

interface Stat {
  label: string;
  value: string;
  /** A short note under the value: how many records it is of. */
  note?: string;
  /** A count of records: all of them (null) or those of a status. */
  counts?: { status: string | null };
}

export function summaryStats(kind: DashboardKind, records: DashboardRecord[]): Stat[] {
  const total = records.length;
  const stats: Stat[] = [{ label: kind.plural, value: String(total), counts: { status: null } }];
  for (const status of kind.statuses)
    stats.push({ label: status, value: String(records.filter((r) => labelOf(r, 'status') === status).length), counts: { status } });
  for (const span of kind.spans) {
    const s = durationStats(records, 'reported_at', span.to);
    const note = `${s.count} of ${total}`;
    stats.push({ label: `${span.label}, mean`, value: durationText(s.mean), note });
    stats.push({ label: `${span.label}, median`, value: durationText(s.median), note });
  }
  for (const cost of kind.costs) {
    const sum = totalOf(records, cost.field);
    stats.push({ label: `Total ${cost.label.toLowerCase()}`, value: moneyText(sum) });
    stats.push({ label: `Average ${cost.label.toLowerCase()}`, value: total ? moneyText(sum / total) : '-' });
  }
  return stats;
}

/** `listOf(status)`: the table of the records a count counts (all of them for null). */
export function Summary({ kind, records, listOf }: { kind: DashboardKind; records: DashboardRecord[]; listOf: (status: string | null) => string }) {
  return (
    <Box component="section" aria-labelledby="dashboard-summary">
      <Title order={2} size="h4" id="dashboard-summary" mb="xs">
        Summary
      </Title>
      <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))', gap: 'var(--mantine-spacing-sm)' }}>
        {summaryStats(kind, records).map((stat) => (
          <Paper key={stat.label} withBorder p="sm" data-stat={stat.label}>
            <Text component="dt" size="sm" c="dimmed">
              {stat.label}
            </Text>
            <Text component="dd" m={0} fw={700} fz="xl">
              {stat.counts ? (
                <Link
                  to={listOf(stat.counts.status)}
                  aria-label={`${stat.value} ${stat.counts.status ?? kind.plural.toLowerCase()}: open the list`}
                  style={{ color: 'var(--mantine-color-anchor)' }}
                >
                  {stat.value}
                </Link>
              ) : (
                stat.value
              )}
            </Text>
            {stat.note && (
              <Text component="dd" m={0} size="xs" c="dimmed">
                {stat.note}
              </Text>
            )}
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
