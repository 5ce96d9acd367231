// Dashboards: incidents (/:organization/dashboards/incidents) and cases (…/dashboards/cases).
// This chunk and the echarts chunk it loads are the only ones with charts.
import { Button, Group, Stack, Title } from '@mantine/core';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { useOrganization } from '../../api/session.ts';
import { EmptyState } from '../../components/Feedback.tsx';
import { DASHBOARDS, type DashboardKind } from './kinds.ts';
import { RecordDashboard } from './RecordDashboard.tsx';

/** The window travels between the two dashboards; the type and priority filters are the kind's own. */
function carried(search: string) {
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const key of ['window', 'from', 'to', 'project']) for (const v of params.getAll(key)) kept.append(key, v);
  const text = kept.toString();
  return text ? `?${text}` : '';
}

function Dashboard({ kind }: { kind: DashboardKind }) {
  const organization = useOrganization();
  const location = useLocation();
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{kind.title}</Title>
        <nav aria-label="Dashboards">
          <Group gap="xs">
            {DASHBOARDS.map((d) => (
              <Button
                key={d.key}
                component={Link}
                to={`/${organization}/dashboards/${d.key}${carried(location.search)}`}
                variant={d.key === kind.key ? 'filled' : 'default'}
                aria-current={d.key === kind.key ? 'page' : undefined}
                size="xs"
              >
                {d.plural}
              </Button>
            ))}
          </Group>
        </nav>
      </Group>
      <RecordDashboard key={kind.key} kind={kind} />
    </Stack>
  );
}

export default function DashboardsPage() {
  return (
    <Routes>
      <Route index element={<Navigate to="incidents" replace />} />
      {DASHBOARDS.map((kind) => (
        <Route key={kind.key} path={kind.key} element={<Dashboard kind={kind} />} />
      ))}
      <Route
        path="*"
        element={
          <>
            <Title order={1}>Dashboards</Title>
            <EmptyState title="There is no such dashboard">Open the incident or the case dashboard.</EmptyState>
          </>
        }
      />
    </Routes>
  );
}
