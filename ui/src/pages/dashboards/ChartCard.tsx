// A dashboard chart with its heading, its data in words for screen readers (a summary as the
// chart's name, and the numbers as a table), and an empty state instead of an empty chart.
import { Card, Stack, Table, Title, VisuallyHidden } from '@mantine/core';
import { useId, useMemo } from 'react';
import { EmptyState } from '../../components/Feedback.tsx';
import { isEmptySeries, type Series } from './aggregate.ts';
import { type ChartKind, chartOption, seriesSummary } from './chart-option.ts';
import { EChart } from './EChart.tsx';

export interface ChartCardProps {
  title: string;
  data: Series;
  kind?: ChartKind;
  format?: (x: number) => string;
  /** What the empty state says: why there is nothing, what to do. */
  empty: string;
}

export function ChartCard({ title, data, kind = 'bar', format = String, empty }: ChartCardProps) {
  const headingId = useId();
  const option = useMemo(() => chartOption(data, kind, format), [data, kind, format]);
  const nothing = isEmptySeries(data);
  return (
    <Card withBorder component="section" aria-labelledby={headingId} padding="md">
      <Stack gap="xs">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        {nothing ? (
          <EmptyState title="Nothing to show">{empty}</EmptyState>
        ) : (
          <>
            <div role="img" aria-label={`${title}: ${seriesSummary(data, format)}`}>
              <EChart option={option} />
            </div>
            <VisuallyHidden>
              <SeriesTable title={title} data={data} format={format} />
            </VisuallyHidden>
          </>
        )}
      </Stack>
    </Card>
  );
}

function SeriesTable({ title, data, format }: { title: string; data: Series; format: (x: number) => string }) {
  return (
    <Table>
      <caption>{title}</caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Group</Table.Th>
          {data.series.map((s) => (
            <Table.Th key={s.name} scope="col">
              {s.name}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.categories.map((c, i) => (
          <Table.Tr key={c}>
            <Table.Th scope="row">{c}</Table.Th>
            {data.series.map((s) => (
              <Table.Td key={s.name}>{s.data[i] === null || s.data[i] === undefined ? '-' : format(s.data[i] as number)}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
