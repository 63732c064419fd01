import type { ListSchemeItemsBody, ListSchemesBody, Platform, PublishAccountsBody, PublishMaterialsBody } from '@ads/contracts';

/** Query keys of publishing: lookups of the wizard, schemes with their items, templates. */
export const publishKeys = {
  all: ['publish'] as const,
  accounts: (body: PublishAccountsBody) => [...publishKeys.all, 'accounts', body] as const,
  catalog: (platform: Platform, keyword: string) => [...publishKeys.all, 'catalog', platform, keyword] as const,
  materials: (body: PublishMaterialsBody) => [...publishKeys.all, 'materials', body] as const,
  linkPreview: (dramaId: number | null, productId: number | null, episode: number | null) => [...publishKeys.all, 'link-preview', dramaId, productId, episode] as const,
  schemes: () => [...publishKeys.all, 'schemes'] as const,
  schemeList: (body: ListSchemesBody) => [...publishKeys.schemes(), 'list', body] as const,
  scheme: (id: number) => [...publishKeys.schemes(), 'get', id] as const,
  items: (body: ListSchemeItemsBody) => [...publishKeys.schemes(), 'items', body] as const,
  templates: (platform: Platform) => [...publishKeys.all, 'templates', platform] as const,
};
