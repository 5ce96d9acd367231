// A case's fields, each edited where it stands and saved on its own, as on the incident page: ✎ (or
// the pick of a choice), then the save sends the case as it was when the edit began, changed in that
// field alone, with If-Match (a colleague's change to another field is kept; to the same field, both
// are shown by the page's notice).
import { SimpleGrid, Stack } from '@mantine/core';
import { InlinePerson, InlineSelect, InlineText } from '../../components/InlineEdit.tsx';
import { Field } from '../../components/Field.tsx';
import { useCaseUpdate, useNames } from './case-api.ts';
import type { CaseChanges } from './transitions.ts';
import { type Case, RESOLUTION_REASONS, VISIBILITIES } from './types.ts';

export function CaseDetailsForm({ organization, c }: { organization: string; c: Case }) {
  const update = useCaseUpdate(organization, c);
  /** A save of one field, based on the version shown when its edit began. */
  const edit = (changes: (value: string) => CaseChanges) => () => {
    const base = c;
    return (value: string) => update.mutateAsync({ changes: changes(value), base });
  };
  const projectId = c.project?.id;
  const types = useNames(organization, '/case_types', projectId);
  const priorities = useNames(organization, '/case_priorities', projectId);
  const severities = useNames(organization, '/case_severities', projectId);
  return (
    <Stack gap="sm" aria-label="Case details" role="group">
      <Field label="Description">
        <InlineText label="Description" value={c.description ?? ''} multiline begin={edit((description) => ({ description }))} />
      </Field>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <InlineSelect label="Priority" value={c.case_priority?.name ?? ''} data={priorities.names} begin={edit((case_priority) => ({ case_priority }))} />
        <InlineSelect label="Severity" value={c.case_severity?.name ?? ''} data={severities.names} begin={edit((case_severity) => ({ case_severity }))} />
        <InlineSelect label="Type" value={c.case_type?.name ?? ''} data={types.names} begin={edit((case_type) => ({ case_type }))} />
        <InlineSelect label="Visibility" value={c.visibility ?? 'Open'} data={[...VISIBILITIES]} begin={edit((visibility) => ({ visibility }))} />
        <InlineSelect
          label="Resolution reason"
          value={c.resolution_reason ?? ''}
          data={[...RESOLUTION_REASONS]}
          begin={edit((resolution_reason) => ({ resolution_reason }))}
        />
        <Field label="Assignee">
          <InlinePerson organization={organization} label="Assignee" value={c.assignee?.individual?.email ?? ''} begin={edit((assignee) => ({ assignee }))} />
        </Field>
        <Field label="Reporter">
          <InlinePerson organization={organization} label="Reporter" value={c.reporter?.individual?.email ?? ''} begin={edit((reporter) => ({ reporter }))} />
        </Field>
      </SimpleGrid>
      <Field label="Resolution">
        <InlineText label="Resolution" value={c.resolution ?? ''} multiline begin={edit((resolution) => ({ resolution }))} />
      </Field>
    </Stack>
  );
}
