import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChartCard } from './ChartCard.tsx';

// The chart itself is echarts' business; here, what the card says around it.
vi.mock('./EChart.tsx', () => ({ EChart: () => <div data-testid="chart" /> }));

afterEach(cleanup);

const card = (data: Parameters<typeof ChartCard>[0]['data'], format?: (x: number) => string) =>
  render(
    <MantineProvider>
      <ChartCard title="Costs by type" data={data} format={format} empty="No costs in this window." />
    </MantineProvider>,
  );

describe('a dashboard chart', () => {
  it('names the chart by its numbers and gives them as a table', () => {
    card({ categories: ['Outage', 'Security'], series: [{ name: 'Cost', data: [100.5, 2] }] }, (x) => `$${x}`);
    expect(screen.getByRole('region', { name: 'Costs by type' })).toBeTruthy();
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Costs by type: Outage $100.5, Security $2');
    expect(screen.getByTestId('chart')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Costs by type' });
    expect([...table.querySelectorAll('tr')].map((tr) => tr.textContent)).toEqual(['GroupCost', 'Outage$100.5', 'Security$2']);
  });

  it('names each series when there are several, and shows gaps as dashes', () => {
    card({
      categories: ['2026-01', '2026-02'],
      series: [
        { name: 'Predicted', data: [3, 4] },
        { name: 'Actual', data: [2, null] },
      ],
    });
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Costs by type: Predicted: 2026-01 3, 2026-02 4; Actual: 2026-01 2');
    expect(screen.getByRole('table').querySelectorAll('tr')[2].textContent).toBe('2026-024-');
  });

  it('shows an empty state, not a chart, when there is nothing to draw', () => {
    card({ categories: ['Outage'], series: [{ name: 'Cost', data: [0] }] });
    expect(screen.queryByTestId('chart')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Nothing to show' })).toBeTruthy();
    expect(screen.getByText('No costs in this window.')).toBeTruthy();
    card({ categories: [], series: [] });
    expect(screen.queryByTestId('chart')).toBeNull();
  });
});
