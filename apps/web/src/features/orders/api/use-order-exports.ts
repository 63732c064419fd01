import { endpoints, type ExportOrderCohortBody, type ExportOrderDailyBody, type ExportOrdersBody } from '@ads/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

type NoPaging<B> = Omit<B, 'page' | 'page_size'>;

/** /orders/export: every matching order (no paging) with the shown columns, as .xlsx. */
export function useExportOrders() {
  return useMutation({ mutationFn: ({ body, filename }: { body: NoPaging<ExportOrdersBody>; filename: string }) => api.download(endpoints.orders.export, body, filename) });
}

/** /orders/daily_export: every day (× split) row and the totals, as .xlsx. */
export function useExportOrderDaily() {
  return useMutation({ mutationFn: ({ body, filename }: { body: NoPaging<ExportOrderDailyBody>; filename: string }) => api.download(endpoints.orders.daily_export, body, filename) });
}

/** /orders/cohort_export: the cohort triangle with the shown ages, as .xlsx. */
export function useExportOrderCohort() {
  return useMutation({ mutationFn: ({ body, filename }: { body: ExportOrderCohortBody; filename: string }) => api.download(endpoints.orders.cohort_export, body, filename) });
}
