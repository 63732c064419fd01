/**
 * Root query keys of the server data each feature owns. Feature key factories build on these,
 * and a mutation that changes another feature's data invalidates that root (for example a new
 * user changes a department's member count).
 *
 * Query functions pass no AbortSignal to the request layer on purpose: an abort that lands while
 * the body is being read surfaces there as a "network error" toast. A superseded answer is
 * simply ignored by react-query instead.
 */
export const rootKeys = {
  users: ['users'] as const,
  departments: ['departments'] as const,
  roles: ['roles'] as const,
  personalAccounts: ['personal-accounts'] as const,
  adAccounts: ['ad-accounts'] as const,
  pages: ['pages'] as const,
  pixels: ['pixels'] as const,
  sites: ['sites'] as const,
  dramas: ['dramas'] as const,
  products: ['products'] as const,
  tasks: ['tasks'] as const,
  materials: ['materials'] as const,
  cron: ['cron'] as const,
  overview: ['overview'] as const,
};

/**
 * What a sync of personal accounts can change: the accounts themselves and every asset they
 * reach (ad accounts, pages, pixels). Invalidate these when a sync task finishes.
 */
export const syncedAssetKeys = [rootKeys.personalAccounts, rootKeys.adAccounts, rootKeys.pages, rootKeys.pixels] as const;
