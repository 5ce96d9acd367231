// Signals: the instances detection systems sent, the definitions that say what to do with them,
// and the filters that snooze or de-duplicate them. Each tab and record has its own URL under
// /:organization/signals/.
import { Button, Group, Stack, Title } from '@mantine/core';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { DefinitionPage } from './DefinitionPage.tsx';
import { DefinitionsTab } from './DefinitionsTab.tsx';
import { FilterPage } from './FilterPage.tsx';
import { FiltersTab } from './FiltersTab.tsx';
import { InstancesTab } from './InstancesTab.tsx';

const TABS: [string, string][] = [
  ['instances', 'Instances'],
  ['definitions', 'Definitions'],
  ['filters', 'Filters'],
];

export default function SignalsPage() {
  const organization = useOrganization();
  const tab = useLocation().pathname.split('/')[3];
  return (
    <Stack>
      <Title order={1}>Signals</Title>
      <Group component="nav" aria-label="Signal views" gap="xs">
        {TABS.map(([path, label]) => (
          <Button
            key={path}
            component={Link}
            to={`/${organization}/signals/${path}`}
            variant={tab === path ? 'filled' : 'default'}
            aria-current={tab === path ? 'page' : undefined}
            size="sm"
          >
            {label}
          </Button>
        ))}
      </Group>
      <Routes>
        <Route index element={<Navigate to="instances" replace />} />
        <Route path="instances" element={<InstancesTab organization={organization} />} />
        <Route path="definitions" element={<DefinitionsTab organization={organization} />} />
        <Route path="definitions/:id" element={<DefinitionPage organization={organization} />} />
        <Route path="filters" element={<FiltersTab organization={organization} />} />
        <Route path="filters/:id" element={<FilterPage organization={organization} />} />
        <Route path="*" element={<ErrorAlert error={new Error('There is no such signals page.')} title="Not found" />} />
      </Routes>
    </Stack>
  );
}
