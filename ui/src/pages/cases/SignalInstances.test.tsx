import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { SignalInstances } from './SignalInstances.tsx';

afterEach(cleanup);

const show = (instances: Parameters<typeof SignalInstances>[0]['instances']) =>
  render(
    <MantineProvider>
      <MemoryRouter>
        <SignalInstances organization="default" instances={instances} />
      </MemoryRouter>
    </MantineProvider>,
  );

describe('a case’s signal instances', () => {
  it('lists them newest first and shows the raw data of one', async () => {
    show([
      { created_at: '2026-01-01T10:00:00Z', fingerprint: 'aaa', raw: { user: 'old' }, signal: { id: 1, name: 'Impossible travel' } },
      { created_at: '2026-01-02T10:00:00Z', fingerprint: 'bbb', raw: { user: 'new', ip: '10.0.0.1' }, signal: { id: 2, name: 'Phish reported' } },
    ]);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('Phish reported'), expect.stringContaining('Impossible travel')]);
    expect(screen.getByRole('link', { name: 'Phish reported' }).getAttribute('href')).toBe('/default/signals/2');
    fireEvent.click(screen.getAllByRole('button', { name: /Raw data of Phish reported/ })[0]);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('"ip": "10.0.0.1"');
  });

  it('says so when there are none', () => {
    show([]);
    expect(screen.getByText('No signal instance belongs to this case.')).toBeTruthy();
  });
});
