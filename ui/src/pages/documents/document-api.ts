// The text of the documents Muster keeps: read with its version, saved naming the version it was
// made from (409 when someone else saved since), exported as a file, action items made tasks.
import { API_BASE, ApiError, api, orgPath } from '../../api/client.ts';
import { readToken } from '../../api/token.ts';

export interface DocumentContent {
  id: number;
  name: string;
  resource_type: string | null;
  content: string;
  version: number;
  read_only: boolean;
  updated_at: string;
}

/** What a record's document is for, as its `resource_type` says (the weblinks Muster writes name it). */
export const DOCUMENT_TYPES: Record<string, string> = {
  incident: 'dispatch-incident-document',
  case: 'dispatch-case-document',
  review: 'dispatch-incident-review-document',
};

export const getContent = (organization: string, id: number) => api<DocumentContent>(orgPath(organization, `/documents/${id}/content`));

export const saveContent = (organization: string, id: number, content: string, version: number) =>
  api<DocumentContent>(orgPath(organization, `/documents/${id}/content`), { method: 'PUT', body: { content, version } });

export const makeTasks = (organization: string, id: number) =>
  api<{ id: number; description: string }[]>(orgPath(organization, `/documents/${id}/action_items`), { method: 'POST' });

/** Downloads the document as Markdown or PDF (a request with the caller's token, then a file the browser saves). */
export async function download(organization: string, id: number, format: 'markdown' | 'pdf') {
  const token = readToken();
  const response = await fetch(`${API_BASE}${orgPath(organization, `/documents/${id}/export`)}?format=${format}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new ApiError(response.status, `The export failed (${response.status}).`);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `document.${format === 'pdf' ? 'pdf' : 'md'}`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}
