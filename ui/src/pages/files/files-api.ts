// A record's files over the API: JSON for the list, multipart for an upload, and a download read
// with the session's token (a plain link could not carry it) and handed to the browser to save.
import { API_BASE, ApiError, api, detailText, orgPath } from '../../api/client.ts';
import { readToken } from '../../api/token.ts';

export interface RecordFile {
  id: number;
  name: string;
  content_type: string;
  size: number;
  creator: string;
  created_at: string;
}

/** `incidents/12` or `cases/7`: the record whose files these are. */
export type RecordPath = `${'incidents' | 'cases'}/${number}`;

export const filesPath = (record: RecordPath) => `/${record}/files`;

export const listFiles = (organization: string, record: RecordPath) => api<RecordFile[]>(orgPath(organization, filesPath(record)));

export const removeFile = (organization: string, record: RecordPath, id: number) =>
  api<null>(orgPath(organization, `${filesPath(record)}/${id}`), { method: 'DELETE' });

const authorization = (): Record<string, string> => {
  const token = readToken();
  return token ? { authorization: `Bearer ${token}` } : {};
};

async function failure(response: Response): Promise<ApiError> {
  const body = await response.json().catch(() => null);
  return new ApiError(response.status, detailText(body?.detail, response.status), body?.detail);
}

export async function uploadFile(organization: string, record: RecordPath, file: File): Promise<RecordFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch(`${API_BASE}${orgPath(organization, filesPath(record))}`, { method: 'POST', headers: authorization(), body: form });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** Fetches the file and has the browser save it under its name. */
export async function downloadFile(organization: string, record: RecordPath, file: RecordFile): Promise<void> {
  const response = await fetch(`${API_BASE}${orgPath(organization, `${filesPath(record)}/${file.id}`)}`, { headers: authorization() });
  if (!response.ok) throw await failure(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
