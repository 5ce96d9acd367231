// The incident page's "Files and meeting" tab: its meeting and groups, then its files.
import { Stack, Title } from '@mantine/core';
import { MeetingAndGroups } from './MeetingAndGroups.tsx';
import { RecordFiles } from './RecordFiles.tsx';

export function IncidentFilesSection({
  organization,
  incident,
}: {
  organization: string;
  incident: { id: number; conference?: { weblink?: string | null } | null };
}) {
  return (
    <Stack gap="lg">
      <section aria-labelledby="incident-meeting">
        <Title order={2} size="h3" id="incident-meeting" mb="xs">
          Meeting and groups
        </Title>
        <MeetingAndGroups organization={organization} incident={incident} />
      </section>
      <section aria-labelledby="incident-files">
        <Title order={2} size="h3" id="incident-files" mb="xs">
          Files
        </Title>
        <RecordFiles organization={organization} record={`incidents/${incident.id}`} />
      </section>
    </Stack>
  );
}
