// The frame of every signed-in page: navigation, the global search box, report-an-incident, the
// colour scheme switch (follows the system until chosen, then remembered) and the account menu.
import {
  ActionIcon,
  AppShell,
  Burger,
  Button,
  Group,
  Kbd,
  Menu,
  Modal,
  NavLink,
  Table,
  Text,
  TextInput,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../api/session.ts';
import { tokenExpired } from '../api/token.ts';
import { SHORTCUT_HELP, useShortcuts } from '../lib/shortcuts.ts';
import { CommandPalette } from './CommandPalette.tsx';

const NAV: [string, string][] = [
  ['incidents', 'Incidents'],
  ['cases', 'Cases'],
  ['signals', 'Signals'],
  ['tasks', 'Tasks'],
  ['dashboards', 'Dashboards'],
  ['search', 'Search'],
  ['settings', 'Settings'],
];

export default function Layout() {
  const session = useSession();
  const { organization } = session;
  const location = useLocation();
  const navigate = useNavigate();
  const [opened, { toggle }] = useDisclosure();
  const [help, setHelp] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  const { setColorScheme } = useMantineColorScheme();
  // The scheme in use: the chosen one, or the system's while none is chosen.
  const colorScheme = useComputedColorScheme('light');
  const pending = useRef('');
  const [palette, setPalette] = useState(false);

  // Ctrl-K (Cmd-K): the command palette, from anywhere, a text field included.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPalette((open) => !open);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useShortcuts({
    '/': () => search.current?.focus(),
    n: () => navigate(`/${organization}/incidents/report`),
    '?': () => setHelp(true),
    g: () => {
      pending.current = 'g';
      setTimeout(() => (pending.current = ''), 800);
    },
    i: () => pending.current === 'g' && navigate(`/${organization}/incidents`),
    c: () => pending.current === 'g' && navigate(`/${organization}/cases`),
  });

  if (tokenExpired(session.token)) {
    const next = encodeURIComponent(location.pathname + location.search + location.hash);
    return <Navigate to={`/${organization}/auth/login?next=${next}`} replace />;
  }

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = new FormData(event.currentTarget).get('q');
    if (q) navigate(`/${organization}/search?q=${encodeURIComponent(String(q))}`);
  };
  const section = location.pathname.split('/')[2];

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 200, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Text component={Link} to={`/${organization}/incidents`} fw={700} fz="lg" c="var(--mantine-color-text)" td="none">
              Muster
            </Text>
            <Text c="dimmed" size="sm" visibleFrom="sm">
              {organization}
            </Text>
          </Group>
          <search style={{ flex: 1, maxWidth: 420 }}>
            <form onSubmit={onSearch}>
              <TextInput ref={search} name="q" placeholder="Search incidents, cases, people…" aria-label="Search" rightSection={<Kbd size="xs">/</Kbd>} />
            </form>
          </search>
          <Group wrap="nowrap" gap="xs">
            <Button component={Link} to={`/${organization}/incidents/report`} size="xs" color="red" visibleFrom="sm">
              Report incident
            </Button>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={colorScheme === 'dark' ? 'Use the light colour scheme' : 'Use the dark colour scheme'}
              onClick={() => setColorScheme(colorScheme === 'dark' ? 'light' : 'dark')}
            >
              {colorScheme === 'dark' ? '☀' : '☾'}
            </ActionIcon>
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="default" size="xs" aria-label="Account">
                  {session.email ?? 'Account'}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{session.role ?? ''}</Menu.Label>
                <Menu.Item onClick={() => setHelp(true)}>Keyboard shortcuts</Menu.Item>
                <Menu.Item onClick={() => setColorScheme('auto')}>Follow the system's colours</Menu.Item>
                <Menu.Item component="a" href="/api/v1/docs">
                  API docs
                </Menu.Item>
                <Menu.Item onClick={session.signOut}>Sign out</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Sections">
        {NAV.map(([path, label]) => (
          <NavLink key={path} component={Link} to={`/${organization}/${path}`} label={label} active={section === path} variant="filled" />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <CommandPalette
        opened={palette}
        onClose={() => setPalette(false)}
        places={[
          { label: 'Report an incident', run: () => navigate(`/${organization}/incidents/report`) },
          ...NAV.map(([path, label]) => ({ label: `Go to ${label.toLowerCase()}`, run: () => navigate(`/${organization}/${path}`) })),
        ]}
        search={(text) => navigate(`/${organization}/search?q=${encodeURIComponent(text)}`)}
      />
      <Modal opened={help} onClose={() => setHelp(false)} title="Keyboard shortcuts" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Table>
          <Table.Tbody>
            {SHORTCUT_HELP.map(([keys, what]) => (
              <Table.Tr key={keys}>
                <Table.Td>
                  <Kbd>{keys}</Kbd>
                </Table.Td>
                <Table.Td>{what}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Modal>
    </AppShell>
  );
}
