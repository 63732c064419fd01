import type { ListOrdersBody, OrderCohortBody, OrderDailyBody, OrderOptionKind } from '@ads/contracts';

/** Root of every order query: new orders arrive all the time, so lists and analyses refresh together. */
export const orderKeys = {
  all: ['orders'] as const,
  list: (body: ListOrdersBody) => [...orderKeys.all, 'list', body] as const,
  detail: (id: number) => [...orderKeys.all, 'detail', id] as const,
  daily: (body: OrderDailyBody) => [...orderKeys.all, 'daily', body] as const,
  cohort: (body: OrderCohortBody) => [...orderKeys.all, 'cohort', body] as const,
  options: (kind: OrderOptionKind, keyword: string) => [...orderKeys.all, 'options', kind, keyword] as const,
};
