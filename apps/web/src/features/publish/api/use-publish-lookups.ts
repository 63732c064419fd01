import { endpoints, type Platform, type PublishAccountsBody, type PublishMaterialsBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { publishKeys } from './keys';

/** /publish/accounts: the ad accounts the caller may publish to, with currency, zone, balance, token, pages and pixels. */
export function usePublishAccounts(platform: Platform, opts: { enabled?: boolean } = {}) {
  const body: PublishAccountsBody = { platform };
  return useQuery({
    queryKey: publishKeys.accounts(body),
    queryFn: () => api.call(endpoints.publish.accounts, body),
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}

/** /publish/catalog: dramas (dj) or products (ec) for step 1. */
export function usePublishCatalog(platform: Platform, keyword: string) {
  return useQuery({
    queryKey: publishKeys.catalog(platform, keyword),
    queryFn: () => api.call(endpoints.publish.catalog, { platform, limit: 50, ...(keyword && { keyword }) }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** /publish/materials: one page of the library for step 2. */
export function usePublishMaterials(body: PublishMaterialsBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: publishKeys.materials(body),
    queryFn: () => api.call(endpoints.publish.materials, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    staleTime: 30_000,
  });
}

/** /publish/link_preview: the site's landing link for the drama/product and episode, with url_tags macros. */
export function useLinkPreview(what: { drama_id?: number | null; product_id?: number | null; episode?: number | null }) {
  const dramaId = what.drama_id ?? null;
  const productId = what.product_id ?? null;
  const episode = dramaId ? (what.episode ?? 1) : null;
  return useQuery({
    queryKey: publishKeys.linkPreview(dramaId, productId, episode),
    queryFn: () => api.call(endpoints.publish.link_preview, { drama_id: dramaId, product_id: productId, episode }),
    enabled: dramaId !== null || productId !== null,
    staleTime: 60_000,
  });
}
