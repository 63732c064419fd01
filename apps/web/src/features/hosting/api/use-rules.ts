import { endpoints, type DryRunResult, type ListFiringsBody, type ListRulesBody, type RuleDraftIn } from '@ads/contracts';
import type { BodyIn } from '@ads/contracts/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

// Hosting rules, their history and the notification channels (issue 10), through the endpoint table.

export const ruleKeys = {
  all: ['hosting-rules'] as const,
  list: (body: ListRulesBody) => [...ruleKeys.all, 'list', body] as const,
  options: () => [...ruleKeys.all, 'options'] as const,
  history: ['rule-history'] as const,
  evaluations: (body: unknown) => [...ruleKeys.history, 'evaluations', body] as const,
  firings: (body: unknown) => [...ruleKeys.history, 'firings', body] as const,
  channels: ['notification-channels'] as const,
  channelList: (body: unknown) => [...ruleKeys.channels, 'list', body] as const,
  deliveries: (body: unknown) => [...ruleKeys.channels, 'deliveries', body] as const,
};

export function useRules(body: ListRulesBody) {
  return useQuery({ queryKey: ruleKeys.list(body), queryFn: () => api.call(endpoints.hostingRules.list, body), placeholderData: keepPreviousData });
}

/** People, departments, hosted ad accounts, dramas, products and channels the editor offers. */
export function useRuleOptions(enabled = true) {
  return useQuery({ queryKey: ruleKeys.options(), queryFn: () => api.call(endpoints.hostingRules.options), enabled, staleTime: 60_000 });
}

export function useSaveRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { id?: number; rule: RuleDraftIn }) => api.call(endpoints.hostingRules.save, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

export function useToggleRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: number; enabled: boolean }) => api.call(endpoints.hostingRules.toggle, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

export function useDeleteRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.hostingRules.delete, { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

/** What a saved (`id`) or unsaved (`rule`) rule would do now; acts on nothing. */
export function useDryRun() {
  return useMutation<DryRunResult, Error, { id: number } | { rule: RuleDraftIn }>({ mutationFn: (body) => api.call(endpoints.hostingRules.dry_run, body) });
}

export function useRunNow() {
  return useMutation({ mutationFn: (id: number) => api.call(endpoints.hostingRules.run_now, { id }) });
}

export type EvaluationsBody = BodyIn<typeof endpoints.ruleHistory.evaluations>;
export function useEvaluations(body: EvaluationsBody, enabled = true) {
  return useQuery({ enabled, queryKey: ruleKeys.evaluations(body), queryFn: () => api.call(endpoints.ruleHistory.evaluations, body), placeholderData: keepPreviousData });
}

export function useFirings(body: ListFiringsBody, enabled = true) {
  return useQuery({ enabled, queryKey: ruleKeys.firings(body), queryFn: () => api.call(endpoints.ruleHistory.firings, body), placeholderData: keepPreviousData });
}

/** /rule-history/export: every matching firing with the shown columns, as .xlsx. */
export function useExportFirings() {
  return useMutation({ mutationFn: ({ body, filename }: { body: Omit<ListFiringsBody, 'page' | 'page_size'>; filename: string }) => api.download(endpoints.ruleHistory.export, body, filename) });
}

export type ChannelsBody = BodyIn<typeof endpoints.notificationChannels.list>;
export function useChannels(body: ChannelsBody) {
  return useQuery({ queryKey: ruleKeys.channelList(body), queryFn: () => api.call(endpoints.notificationChannels.list, body), placeholderData: keepPreviousData });
}

export type DeliveriesBody = BodyIn<typeof endpoints.notifications.list>;
export function useDeliveries(body: DeliveriesBody) {
  return useQuery({ queryKey: ruleKeys.deliveries(body), queryFn: () => api.call(endpoints.notifications.list, body), placeholderData: keepPreviousData });
}

export function useSaveChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyIn<typeof endpoints.notificationChannels.save>) => api.call(endpoints.notificationChannels.save, body),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ruleKeys.channels }), qc.invalidateQueries({ queryKey: ruleKeys.options() })]),
  });
}

export function useDeleteChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.notificationChannels.delete, { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ruleKeys.channels }),
  });
}

/** Sends a test message now; answers its delivery. */
export function useTestChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.notificationChannels.test, { id }),
    onSettled: () => qc.invalidateQueries({ queryKey: ruleKeys.channels }),
  });
}
