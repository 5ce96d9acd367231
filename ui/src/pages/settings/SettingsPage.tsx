// The settings area: a list of sections beside the chosen one. The plain record groups are all one
// screen (RecordSection) given each group's declaration (sections.tsx); plugins, users and the
// registration policy, one's own password and API tokens, service accounts and the audit log (listed
// for Owners only) have screens of their own.
import { Grid, NavLink, ScrollArea, Text } from '@mantine/core';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { useOrganization, useSession } from '../../api/session.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { ApiTokensSection } from './ApiTokensSection.tsx';
import { AuditLogSection } from './AuditLogSection.tsx';
import { PluginsSection } from './PluginsSection.tsx';
import { RecordSection } from './records/RecordSection.tsx';
import { RegistrationSection } from './RegistrationSection.tsx';
import { SECTIONS } from './sections.tsx';
import { ServiceAccountsSection } from './ServiceAccountsSection.tsx';
import { SignInSection } from './SignInSection.tsx';
import { UsersSection } from './UsersSection.tsx';
import { AccountSection } from './AccountSection.tsx';
import { TemplatesSection } from '../documents/TemplatesSection.tsx';

/** The side list: headings and the sections under each (URL segment, label). */
const GROUPS: [string, [string, string][]][] = [
  [
    'You',
    [
      ['account', 'Password'],
      ['api-tokens', 'API tokens'],
    ],
  ],
  [
    'Organization',
    [
      ['projects', 'Projects'],
      ['users', 'Users and roles'],
      ['registration', 'Registration and invitations'],
      ['service-accounts', 'Service accounts'],
      ['audit-log', 'Audit log'],
      ['sign-in', 'Sign-in methods'],
    ],
  ],
  [
    'Incidents',
    [
      ['incident-priorities', 'Priorities'],
      ['incident-severities', 'Severities'],
      ['incident-types', 'Types'],
      ['incident-cost-types', 'Cost types'],
      ['templates', 'Document templates'],
    ],
  ],
  [
    'Cases',
    [
      ['case-priorities', 'Priorities'],
      ['case-severities', 'Severities'],
      ['case-types', 'Types'],
    ],
  ],
  [
    'Tags',
    [
      ['tag-types', 'Tag types'],
      ['tags', 'Tags'],
    ],
  ],
  [
    'Contacts',
    [
      ['individuals', 'Individuals'],
      ['teams', 'Teams'],
      ['services', 'Services'],
    ],
  ],
  [
    'Automation',
    [
      ['notifications', 'Notifications'],
      ['plugins', 'Plugins'],
      ['workflows', 'Workflows'],
    ],
  ],
];

/** Sections only Owners are shown (the API refuses everyone else). */
const OWNERS_ONLY = new Set(['audit-log']);

function SettingsNav() {
  const organization = useOrganization();
  const owner = useSession().role === 'Owner';
  const current = useLocation().pathname.split('/')[3];
  return (
    <nav aria-label="Settings">
      <ScrollArea>
        {GROUPS.map(([heading, items]) => (
          <div key={heading}>
            <Text component="h2" size="xs" fw={700} tt="uppercase" mt="sm" mb={4} px="sm">
              {heading}
            </Text>
            {items
              .filter(([key]) => owner || !OWNERS_ONLY.has(key))
              .map(([key, label]) => (
                <NavLink
                  key={key}
                  component={Link}
                  to={`/${organization}/settings/${key}`}
                  label={label}
                  active={current === key}
                  variant="filled"
                  aria-current={current === key ? 'page' : undefined}
                />
              ))}
          </div>
        ))}
      </ScrollArea>
    </nav>
  );
}

export default function SettingsPage() {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 3, lg: 2 }}>
        <SettingsNav />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9, lg: 10 }} component="section" aria-label="Settings section">
        <Routes>
          <Route index element={<Navigate to="projects" replace />} />
          {SECTIONS.map((decl) => (
            <Route key={decl.key} path={decl.key} element={<RecordSection key={decl.key} decl={decl} />} />
          ))}
          <Route path="plugins" element={<PluginsSection />} />
          <Route path="templates" element={<TemplatesSection />} />
          <Route path="users" element={<UsersSection />} />
          <Route path="account" element={<AccountSection />} />
          <Route path="registration" element={<RegistrationSection />} />
          <Route path="audit-log" element={<AuditLogSection />} />
          <Route path="api-tokens" element={<ApiTokensSection />} />
          <Route path="service-accounts" element={<ServiceAccountsSection />} />
          <Route path="sign-in" element={<SignInSection />} />
          <Route path="*" element={<ErrorAlert error={new Error('There is no such settings section.')} title="Not found" />} />
        </Routes>
      </Grid.Col>
    </Grid>
  );
}
