import { endpoints, type ListTasksRequest, type Task, type TaskStatus } from '@ads/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** How often a running task is asked for its progress. */
export const TASK_POLL_MS = 1000;

const FINISHED: ReadonlySet<TaskStatus> = new Set(['success', 'skipped', 'failed', 'cancelled']);
export const isTaskFinished = (task: Pick<Task, 'status'> | undefined) => task !== undefined && FINISHED.has(task.status);

export const taskKeys = {
  all: rootKeys.tasks,
  detail: (id: number) => [...taskKeys.all, 'get', id] as const,
  list: (body: ListTasksRequest) => [...taskKeys.all, 'list', body] as const,
};

/** /tasks/get: one task, asked again every second until it has finished. */
export function useTask(id: number | null) {
  return useQuery({
    queryKey: taskKeys.detail(id ?? 0),
    queryFn: () => api.call(endpoints.tasks.get, { id }),
    enabled: id !== null,
    refetchInterval: (query) => (isTaskFinished(query.state.data) ? false : TASK_POLL_MS),
    staleTime: 0,
  });
}

/** /tasks/list: recent tasks (the caller's own; managers see everyone's), refreshed while any runs. */
export function useTasks(body: ListTasksRequest, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: taskKeys.list(body),
    queryFn: () => api.call(endpoints.tasks.list, body),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((t) => !isTaskFinished(t)) ? TASK_POLL_MS * 2 : false),
  });
}

/** /tasks/cancel: stops a queued or running task at its next safe point. */
export function useCancelTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.tasks.cancel, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
