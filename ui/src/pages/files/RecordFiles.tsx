// The files of an incident or a case: the list, an upload button and a download per file. The
// server decides what is accepted (size, type found from the bytes) and says why it refuses.
import { Button, FileButton, Group, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { downloadFile, filesPath, listFiles, type RecordFile, type RecordPath, removeFile, uploadFile } from './files-api.ts';

const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export function RecordFiles({ organization, record }: { organization: string; record: RecordPath }) {
  const client = useQueryClient();
  const key = [organization, filesPath(record)];
  const files = useQuery({ queryKey: key, queryFn: () => listFiles(organization, record) });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const upload = useMutation({ mutationFn: (file: File) => uploadFile(organization, record, file), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (file: RecordFile) => removeFile(organization, record, file.id), onSuccess: refresh });
  const [downloadError, setDownloadError] = useState<unknown>(null);

  if (files.error) return <ErrorAlert error={files.error} title="The files could not be read" />;
  if (!files.data) return <Loading label="Loading the files" />;
  return (
    <Stack gap="sm">
      <Group>
        <FileButton onChange={(file) => file && upload.mutate(file)}>
          {(props) => (
            <Button size="xs" variant="light" loading={upload.isPending} {...props}>
              Upload a file
            </Button>
          )}
        </FileButton>
      </Group>
      {upload.error ? <ErrorAlert error={upload.error} title="The file was not stored" /> : null}
      {remove.error ? <ErrorAlert error={remove.error} title="The file was not removed" /> : null}
      {downloadError ? <ErrorAlert error={downloadError} title="The file could not be downloaded" /> : null}
      {files.data.length === 0 ? (
        <Text>No files yet.</Text>
      ) : (
        <Table striped aria-label="Files">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Added</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.data.map((f) => (
              <Table.Tr key={f.id}>
                <Table.Td>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    onClick={() => {
                      setDownloadError(null);
                      downloadFile(organization, record, f).catch(setDownloadError);
                    }}
                  >
                    {f.name}
                  </Button>
                </Table.Td>
                <Table.Td>{f.content_type}</Table.Td>
                <Table.Td>{size(f.size)}</Table.Td>
                <Table.Td>
                  <Time value={f.created_at} /> by {f.creator}
                </Table.Td>
                <Table.Td>
                  <Button variant="subtle" color="red" size="compact-xs" aria-label={`Remove ${f.name}`} onClick={() => remove.mutate(f)}>
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
