// A record's document kept by Muster, at /{org}/incidents/{name}/documents/{kind} (or a case's): the
// link Muster writes for it. The editor saves the whole text naming the version it started from;
// when someone else saved in between it says so and keeps the text typed, instead of overwriting.
import { Alert, Anchor, Badge, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { CASE, INCIDENT, useRecordId } from '../../api/by-name.ts';
import { ApiError, api, orgPath } from '../../api/client.ts';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { DOCUMENT_TYPES, download, getContent, makeTasks, saveContent } from './document-api.ts';

export default function DocumentPage({ kind }: { kind: 'incident' | 'case' }) {
  const organization = useOrganization();
  const { name = '', doc = kind } = useParams();
  const named = kind === 'incident' ? INCIDENT : CASE;
  const id = useRecordId(organization, named, name);
  const record = useQuery({
    queryKey: [organization, named.path, id.data, 'documents'],
    queryFn: () => api<{ documents: { id: number; resource_type: string | null }[] }>(orgPath(organization, `${named.path}/${id.data}`)),
    enabled: id.data !== undefined,
  });
  if (id.error || record.error) return <ErrorAlert error={id.error ?? record.error} />;
  if (!record.data) return <Loading />;
  const found = record.data.documents.find((d) => d.resource_type === DOCUMENT_TYPES[doc]);
  if (!found) return <ErrorAlert error={new Error(`This ${kind} has no such document yet.`)} title="Not found" />;
  return <DocumentEditor organization={organization} id={found.id} back={`/${organization}${named.path}/${encodeURIComponent(name)}`} />;
}

export function DocumentEditor({ organization, id, back }: { organization: string; id: number; back: string }) {
  const queryClient = useQueryClient();
  const key = [organization, 'document-content', id];
  const current = useQuery({ queryKey: key, queryFn: () => getContent(organization, id) });
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (current.data && text === null) setText(current.data.content);
  }, [current.data, text]);
  if (current.error) return <ErrorAlert error={current.error} />;
  if (!current.data || text === null) return <Loading />;
  const doc = current.data;
  const save = async () => {
    setProblem(null);
    try {
      const saved = await saveContent(organization, id, text, doc.version);
      queryClient.setQueryData(key, saved);
      setNotice(`Saved (version ${saved.version}).`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409)
        setProblem('Someone else saved this document since you opened it. Your text is kept here: reload theirs, then reapply your change.');
      else setProblem((error as Error).message);
    }
  };
  const reload = async () => {
    const fresh = await queryClient.fetchQuery({ queryKey: key, queryFn: () => getContent(organization, id) });
    setText(fresh.content);
    setProblem(null);
  };
  const tasks = async () => {
    try {
      const made = await makeTasks(organization, id);
      setNotice(made.length ? `${made.length} action item(s) made tasks.` : 'Every open action item is a task already.');
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <Stack>
      <Anchor component={Link} to={back} size="sm">
        Back
      </Anchor>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {doc.name}
        </Title>
        <Group gap="xs">
          <Badge variant="light">Version {doc.version}</Badge>
          {doc.read_only && <Badge color="gray">Read-only</Badge>}
        </Group>
      </Group>
      {problem && (
        <Alert color="red" title="Not saved">
          <Stack gap="xs">
            <Text size="sm">{problem}</Text>
            <Button size="xs" variant="light" onClick={reload} w="fit-content">
              Reload
            </Button>
          </Stack>
        </Alert>
      )}
      {notice && <Text size="sm">{notice}</Text>}
      <Textarea
        label="Text (Markdown)"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        readOnly={doc.read_only}
        autosize
        minRows={20}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      <Group>
        <Button onClick={save} disabled={doc.read_only || text === doc.content}>
          Save
        </Button>
        <Button variant="default" onClick={() => download(organization, id, 'markdown')}>
          Export Markdown
        </Button>
        <Button variant="default" onClick={() => download(organization, id, 'pdf')}>
          Export PDF
        </Button>
        {doc.resource_type === DOCUMENT_TYPES.review && (
          <Button variant="default" onClick={tasks} disabled={doc.read_only}>
            Make tasks of the action items
          </Button>
        )}
      </Group>
    </Stack>
  );
}
