// A project's priorities, severities and types as the incident page offers them: the enabled ones of
// the incident's project, the current one always among them, and which one is the project's default
// (where Stable puts the priority).
import { useAll } from '../../api/list.ts';

interface Ranked {
  name: string;
  project?: { id: number } | null;
  enabled?: boolean;
  default?: boolean;
  view_order?: number;
}

export function useProjectNames(organization: string, path: string, projectId: number, current: string) {
  const all = useAll<Ranked>(organization, path);
  const items = (all.data ?? [])
    .filter((r) => (!r.project || r.project.id === projectId) && r.enabled !== false)
    .sort((a, b) => (a.view_order ?? 0) - (b.view_order ?? 0));
  return { names: [...new Set([current, ...items.map((r) => r.name)])], fallback: items.find((r) => r.default)?.name };
}
