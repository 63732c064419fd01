import type { AdOperationsBody, AdReportBody } from '@ads/contracts';
import { z } from 'zod';

/** Root of every ad-data query: an operation or a sync invalidates it whole (figures, statuses and logs move together). */
export const adDataKeys = {
  all: ['ad-data'] as const,
  reports: () => [...adDataKeys.all, 'report'] as const,
  report: (body: AdReportBody) => [...adDataKeys.reports(), body] as const,
  hourly: (level: string, id: number | undefined, day: string) => [...adDataKeys.all, 'hourly', level, id ?? null, day] as const,
  operations: (body: AdOperationsBody) => [...adDataKeys.all, 'operations', body] as const,
  fx: (currency: string | undefined, page: number) => [...adDataKeys.all, 'fx', currency ?? null, page] as const,
};

/** "1,2,3" in the URL ↔ a list of ids. */
export const urlIds = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s)) : v),
  z.array(z.number().int().positive()).min(1).max(500),
);
