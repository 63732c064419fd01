import {
  adAccountSchema,
  dramaSchema,
  pageSchema,
  personalAccountSchema,
  pixelSchema,
  productSchema,
  siteSchema,
  taskSchema,
  type AdAccount,
  type Drama,
  type Page,
  type PersonalAccount,
  type Pixel,
  type Product,
  type Site,
  type Task,
} from '@ads/contracts';

/** Builders for the 授权管理 entities: every object is parsed by its contract schema. */

let nextId = 1000;
const id = () => ++nextId;
const instant = '2026-03-01T08:30:00.000Z';
/** An instant this many days from now (negative: ago). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

export function buildPersonalAccount(overrides: Partial<PersonalAccount> = {}): PersonalAccount {
  const n = overrides.id ?? id();
  return personalAccountSchema.parse({
    id: n,
    fb_user_id: `10000${n}`,
    name: `FB User ${n}`,
    status: 'valid',
    status_reason: null,
    token_expires_at: daysFromNow(45),
    data_access_expires_at: daysFromNow(80),
    scopes: ['ads_management', 'ads_read', 'business_management', 'pages_show_list', 'pages_read_engagement', 'pages_manage_ads'],
    missing_scopes: [],
    owner: null,
    hosted: false,
    ad_account_count: 0,
    page_count: 0,
    pixel_count: 0,
    last_checked_at: null,
    last_synced_at: null,
    last_sync_status: null,
    last_sync_error: null,
    created_at: instant,
    ...overrides,
  });
}

export function buildAdAccount(overrides: Partial<AdAccount> = {}): AdAccount {
  const n = overrides.id ?? id();
  return adAccountSchema.parse({
    id: n,
    platform_id: `act_55500${n}`,
    account_id: `55500${n}`,
    name: `Ad account ${n}`,
    currency: 'USD',
    timezone_name: 'America/Los_Angeles',
    account_status: 1,
    disable_reason: 0,
    amount_spent: 0,
    balance: 0,
    spend_cap: null,
    business_name: null,
    platform: null,
    hosted: false,
    remark: '',
    personal_accounts: [],
    users: [],
    last_synced_at: null,
    ...overrides,
  });
}

export function buildPage(overrides: Partial<Page> = {}): Page {
  const n = overrides.id ?? id();
  return pageSchema.parse({
    id: n,
    platform_id: `77700${n}`,
    name: `Page ${n}`,
    picture_url: null,
    category: null,
    personal_accounts: [],
    ad_accounts: [],
    users: [],
    last_synced_at: null,
    ...overrides,
  });
}

export function buildPixel(overrides: Partial<Pixel> = {}): Pixel {
  const n = overrides.id ?? id();
  return pixelSchema.parse({ id: n, platform_id: `88800${n}`, name: `Pixel ${n}`, last_fired_at: null, ad_accounts: [], sites: [], last_synced_at: null, ...overrides });
}

export function buildSite(overrides: Partial<Site> = {}): Site {
  const n = overrides.id ?? id();
  return siteSchema.parse({
    id: n,
    name: `Site ${n}`,
    domain: `site${n}.example.com`,
    platform: 'dj',
    link_template: `https://site${n}.example.com/play?id={drama_id}`,
    pixel: null,
    remark: '',
    webhook_url: `https://ads.example.com/api/orders/webhook/${n}`,
    catalog_count: 0,
    created_at: instant,
    updated_at: instant,
    ...overrides,
  });
}

export function buildDrama(overrides: Partial<Drama> = {}): Drama {
  const n = overrides.id ?? id();
  return dramaSchema.parse({
    id: n,
    site: { id: 1, name: 'Site' },
    external_id: `D${n}`,
    name: `Drama ${n}`,
    language: 'en',
    episode_count: 60,
    cover_url: null,
    tags: [],
    test_status: 'untested',
    created_at: instant,
    updated_at: instant,
    ...overrides,
  });
}

export function buildProduct(overrides: Partial<Product> = {}): Product {
  const n = overrides.id ?? id();
  return productSchema.parse({
    id: n,
    site: { id: 1, name: 'Shop' },
    external_id: `P${n}`,
    name: `Product ${n}`,
    url: `https://shop.example.com/p/${n}`,
    price: 19.9,
    currency: 'USD',
    cover_url: null,
    tags: [],
    created_at: instant,
    updated_at: instant,
    ...overrides,
  });
}

export function buildTask(overrides: Partial<Task> = {}): Task {
  const n = overrides.id ?? id();
  return taskSchema.parse({
    id: n,
    job_name: 'sync-personal-accounts',
    title: 'Sync personal accounts',
    status: 'queued',
    progress_done: 0,
    progress_total: 0,
    message: null,
    summary: null,
    error: null,
    created_by: 1,
    created_by_name: 'Manager',
    trigger: 'manual',
    queued_at: instant,
    started_at: null,
    finished_at: null,
    ...overrides,
  });
}
