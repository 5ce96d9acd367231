// The tasks table's rows: only mine, or everyone's with mine first (mine-first.ts), refetched live.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Static } from '@sinclair/typebox';
import type { TaskRead } from '../../../../src/app/ui-shapes.ts';
import { fetchList, LIVE_INTERVAL, type Page } from '../../api/list.ts';
import type { FilterSpec } from '../../lib/filters.ts';
import { both, mergeMineFirst, mineFirstPlan, mineSpec, notSpec } from './mine-first.ts';

export type Task = Static<typeof TaskRead>;
export interface TaskRow {
  task: Task;
  mine: boolean;
}

export interface TaskQuery {
  page: number;
  size: number;
  sort: string | undefined;
  desc: boolean;
  filter: FilterSpec | null;
  /** Only the signed-in person's tasks, or everyone's with theirs first. */
  onlyMine: boolean;
}

export async function fetchTasks(organization: string, email: string, q: TaskQuery, signal?: AbortSignal): Promise<{ rows: TaskRow[]; total: number }> {
  const common = { itemsPerPage: q.size, sortBy: q.sort, descending: q.desc };
  const mine = await fetchList<Task>(organization, '/tasks', { ...common, page: q.page, filter: both(q.filter, mineSpec(email)) }, signal);
  if (q.onlyMine) return { rows: mine.items.map((task) => ({ task, mine: true })), total: mine.total };
  const plan = mineFirstPlan(mine.total, q.page, q.size);
  const restFilter = both(q.filter, notSpec(mineSpec(email)));
  const restPage = (page: number, itemsPerPage = q.size) =>
    fetchList<Task>(organization, '/tasks', { ...common, itemsPerPage, page, filter: restFilter }, signal);
  const rest: Page<Task>[] = await Promise.all(plan.rest.map((slice) => restPage(slice.page)));
  // A page all of mine still needs how many others there are.
  const restTotal = rest[0]?.total ?? (await restPage(1, 1)).total;
  const merged = mergeMineFirst(
    plan.mine ? mine.items : [],
    plan.rest.map((slice, n) => ({ slice, items: rest[n].items })),
  );
  return { rows: merged.map(({ item, mine }) => ({ task: item, mine })), total: mine.total + restTotal };
}

export function useTasks(organization: string, email: string | null, q: TaskQuery) {
  return useQuery({
    queryKey: [organization, '/tasks', 'mine-first', email, q],
    queryFn: ({ signal }) => fetchTasks(organization, email!, q, signal),
    enabled: !!email,
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_INTERVAL,
  });
}
