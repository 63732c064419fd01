import {
  combinationCount,
  publishAccountOptionSchema,
  publishCatalogItemSchema,
  publishDraftSchema,
  publishMaterialSchema,
  publishTemplateSchema,
  schemeSchema,
  type PublishAccountOption,
  type PublishCatalogItem,
  type PublishDraft,
  type PublishIssue,
  type PublishMaterial,
  type PublishPreview,
  type PublishPreviewAccount,
  type PublishTemplate,
  type Scheme,
  type SchemeCounts,
  type SchemeItem,
  type SchemeItemLevel,
  type SchemeItemStatus,
} from '@ads/contracts';
import { MockRefusal, type Handlers, type RequestOf } from './mock-api';

const instant = '2026-11-24T08:00:00.000Z';

/** Builders: every object parsed by its contract schema. */
export function buildPublishAccount(o: Partial<PublishAccountOption> & { id: number; name: string }): PublishAccountOption {
  return publishAccountOptionSchema.parse({
    platform_id: `act_${o.id}`,
    currency: 'USD',
    timezone_name: 'America/Los_Angeles',
    account_status: 1,
    balance: 1000,
    spend_cap: null,
    token_status: 'valid',
    token_expires_at: null,
    blocked: null,
    pages: [{ id: o.id * 10 + 1, platform_id: `10${o.id}`, name: `Page of ${o.name}`, picture_url: null }],
    pixels: [{ id: o.id * 10 + 2, platform_id: `20${o.id}`, name: `Pixel ${o.id}`, last_fired_at: null }],
    min_daily_budget: 1,
    ...o,
  });
}

export function buildCatalogItem(o: Partial<PublishCatalogItem> & { id: number; name: string }): PublishCatalogItem {
  return publishCatalogItemSchema.parse({
    kind: 'drama',
    external_id: `D${o.id}`,
    language: 'en',
    episode_count: 60,
    cover_url: null,
    site: { id: 1, name: 'ReelShort', domain: 'reel.example.com', link_template: 'https://reel.example.com/play/{drama}/{episode}?c={campaign_id}', pixel_id: null },
    videos: 2,
    images: 1,
    ...o,
  });
}

export function buildPublishMaterial(o: Partial<PublishMaterial> & { id: number }): PublishMaterial {
  return publishMaterialSchema.parse({
    kind: 'video',
    file_name: `clip-${o.id}.mp4`,
    duration_s: 30,
    width: 720,
    height: 1280,
    thumbnail_url: null,
    file_url: `/api/material/file/${o.id}/video.mp4`,
    drama: null,
    product: null,
    language: 'en',
    editor: { id: 7, name: 'Eve' },
    tags: [],
    created_at: instant,
    ready_account_ids: [],
    ...o,
  });
}

export interface PublishSeed {
  accounts?: PublishAccountOption[];
  outsideScope?: number;
  fx?: Record<string, number>;
  catalog?: PublishCatalogItem[];
  materials?: PublishMaterial[];
  templates?: PublishTemplate[];
  schemes?: { scheme: Scheme; draft: PublishDraft; items: SchemeItem[] }[];
  /** Extra checks the preview answers (our rules or the platform's). */
  issues?: PublishIssue[];
  /** Items (by their key) the run fails with this reason. */
  failing?: Record<string, string>;
  /** The caller's account name ({optimizer}). */
  optimizer?: string;
}

const money = (major: number, currency: string, rate: number) => {
  const zero = ['JPY', 'KRW', 'TWD'].includes(currency);
  const minor = Math.round(major * (zero ? 1 : 100));
  return { currency, minor, major: zero ? minor : minor / 100, usd: Math.round((major / rate) * 100) / 100 };
};

/**
 * An in-memory publishing server for screen tests: lookups from the seed, a preview that expands
 * a draft per account (names from the naming templates, totals per currency and in USD) with the
 * seeded checks, submit refused while any check is an error, schemes whose items advance each
 * time the scheme is read (failing the seeded keys), retry of failed items, cancel, templates.
 */
export function publishBackend(seed: PublishSeed = {}) {
  const db = {
    accounts: seed.accounts ?? [],
    catalog: seed.catalog ?? [],
    materials: seed.materials ?? [],
    templates: (seed.templates ?? []).map((t) => structuredClone(t)),
    schemes: (seed.schemes ?? []).map((s) => structuredClone(s)),
    issues: [...(seed.issues ?? [])],
    failing: { ...(seed.failing ?? {}) },
  };
  const fx = seed.fx ?? { USD: 1, JPY: 150, EUR: 0.9 };
  let nextId = 900;

  const titleOf = (d: PublishDraft) => db.catalog.find((c) => c.id === (d.what.drama_id ?? d.what.product_id));
  const fill = (template: string, values: Record<string, string | undefined>) => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

  function expand(draft: PublishDraft): PublishPreview {
    const title = titleOf(draft);
    const schemeName = draft.scheme_name ?? `${title?.name ?? 'Scheme'} 2026-11-24`;
    const c = draft.creatives;
    const media = [...c.videos.map((v) => v.material_id), ...c.images];
    const texts = c.texts?.primary_texts ?? [];
    const variants: { material: number | null; text: string | null }[] =
      c.source === 'posts'
        ? c.posts.map(() => ({ material: null, text: null }))
        : c.combination === 'dynamic'
          ? [{ material: media[0] ?? null, text: texts[0] ?? null }]
          : c.combination === 'per_video'
            ? media.map((m, i) => ({ material: m, text: texts.length ? texts[i % texts.length]! : null }))
            : media.flatMap((m) => (texts.length ? texts : [null]).map((t) => ({ material: m, text: t })));
    if (variants.length !== combinationCount(c)) throw new Error('mock expansion disagrees with combinationCount');
    const accounts: PublishPreviewAccount[] = draft.where.accounts.map((w) => {
      const a = db.accounts.find((x) => x.id === w.ad_account_id)!;
      const rate = fx[a.currency] ?? 1;
      const budgetMajor = w.budget ?? (draft.campaign.budget_basis === 'usd' ? draft.campaign.budget * rate : draft.campaign.budget);
      const budget = money(budgetMajor, a.currency, rate);
      const s = draft.structure;
      const names = { drama: title?.name, product: title?.name, scheme: schemeName, optimizer: seed.optimizer ?? 'manager', account: a.name, country: draft.adset.countries[0], date: '20261124' };
      let cursor = 0;
      const campaigns = Array.from({ length: s.campaigns_per_account }, (_, ci) => ({
        key: `a${a.id}.c${ci + 1}`,
        name: fill(draft.naming.campaign, { ...names, seq: String(ci + 1) }),
        objective: draft.campaign.objective,
        bid_strategy: draft.campaign.bid_strategy,
        budget: draft.campaign.budget_level === 'campaign' ? { kind: draft.campaign.budget_kind, ...budget } : null,
        adsets: Array.from({ length: s.adsets_per_campaign }, (_, si) => {
          const share = s.ads_per_adset === null ? variants.map((_, i) => i) : Array.from({ length: Math.max(0, Math.min(s.ads_per_adset, variants.length - cursor)) }, (_, k) => cursor + k);
          if (s.ads_per_adset !== null) cursor += share.length;
          return {
            key: `a${a.id}.c${ci + 1}.s${si + 1}`,
            name: fill(draft.naming.adset, { ...names, seq: String(si + 1) }),
            budget: draft.campaign.budget_level === 'adset' ? { kind: draft.campaign.budget_kind, ...budget } : null,
            bid_amount: null,
            countries: draft.adset.countries,
            optimization_goal: draft.adset.optimization_goal,
            conversion_event: draft.adset.conversion_event,
            pixel: w.pixel_id ? { id: w.pixel_id, name: a.pixels.find((p) => p.id === w.pixel_id)?.name ?? 'Pixel' } : null,
            start_time: null,
            start_local: draft.adset.start_local ?? null,
            start_time_zone: draft.adset.start_time_zone ?? null,
            end_time: null,
            ads: share.map((vi, k) => {
              const v = variants[vi]!;
              const m = db.materials.find((x) => x.id === v.material);
              return {
                key: `a${a.id}.c${ci + 1}.s${si + 1}.ad${k + 1}`,
                name: fill(draft.naming.ad, { ...names, seq: String(k + 1), material: m?.file_name.replace(/\.[^.]+$/, ''), editor: m?.editor?.name }),
                creative: {
                  kind: c.source === 'posts' ? ('post' as const) : c.combination === 'dynamic' ? ('dynamic' as const) : (m?.kind ?? 'video'),
                  material_id: v.material,
                  material_name: m?.file_name ?? null,
                  cover_material_id: null,
                  material_ids: c.combination === 'dynamic' ? media : v.material ? [v.material] : [],
                  primary_text: v.text,
                  headline: null,
                  description: null,
                  post_id: null,
                },
                link: w.link,
                url_tags: w.url_tags,
                call_to_action: draft.ad.call_to_action,
              };
            }),
          };
        }),
      }));
      const adsets = campaigns.flatMap((x) => x.adsets);
      const holders = draft.campaign.budget_level === 'campaign' ? campaigns.length : adsets.length;
      const daily = draft.campaign.budget_kind === 'daily' ? money(budgetMajor * holders, a.currency, rate) : null;
      return {
        ad_account_id: a.id,
        platform_id: a.platform_id,
        name: a.name,
        currency: a.currency,
        timezone_name: a.timezone_name,
        page: { id: w.page_id, name: a.pages.find((p) => p.id === w.page_id)?.name ?? 'Page', platform_id: '1' },
        pixel: w.pixel_id ? { id: w.pixel_id, name: a.pixels.find((p) => p.id === w.pixel_id)?.name ?? 'Pixel', platform_id: '2' } : null,
        campaigns,
        materials_to_push: media.filter((id) => !db.materials.find((m) => m.id === id)?.ready_account_ids.includes(a.id)),
        counts: { campaigns: campaigns.length, adsets: adsets.length, ads: adsets.reduce((n, x) => n + x.ads.length, 0) },
        daily_budget: daily,
      };
    });
    const perCurrency = new Map<string, { currency: string; minor: number; major: number; usd: number }>();
    for (const a of accounts) {
      if (!a.daily_budget) continue;
      const cur = perCurrency.get(a.currency) ?? { currency: a.currency, minor: 0, major: 0, usd: 0 };
      cur.minor += a.daily_budget.minor;
      cur.major += a.daily_budget.major;
      cur.usd = Math.round((cur.usd + a.daily_budget.usd) * 100) / 100;
      perCurrency.set(a.currency, cur);
    }
    const issues = db.issues;
    return {
      ok: !issues.some((i) => i.level === 'error'),
      scheme_name: schemeName,
      issues,
      totals: {
        accounts: accounts.length,
        campaigns: accounts.reduce((n, a) => n + a.counts.campaigns, 0),
        adsets: accounts.reduce((n, a) => n + a.counts.adsets, 0),
        ads: accounts.reduce((n, a) => n + a.counts.ads, 0),
        daily_budget: [...perCurrency.values()],
        daily_budget_usd: Math.round([...perCurrency.values()].reduce((n, b) => n + b.usd, 0) * 100) / 100,
        lifetime_budget_usd: 0,
      },
      accounts,
      platform_checked: true,
    };
  }

  const countsOf = (items: SchemeItem[]): SchemeCounts => {
    const c: SchemeCounts = { total: items.length, pending: 0, creating: 0, created: 0, failed: 0, cancelled: 0 };
    for (const i of items) c[i.status]++;
    return c;
  };
  const refresh = (entry: (typeof db.schemes)[number]): Scheme => {
    const counts = countsOf(entry.items);
    const created = (level: SchemeItemLevel) => entry.items.filter((i) => i.level === level && i.status === 'created').length;
    entry.scheme = { ...entry.scheme, counts, created_objects: { campaigns: created('campaign'), adsets: created('adset'), ads: created('ad') } };
    return entry.scheme;
  };
  /** One step of a run: half of what is pending gets created (or fails), then the scheme settles. */
  const advance = (entry: (typeof db.schemes)[number]) => {
    const s = entry.scheme;
    if (s.status === 'cancelling') {
      for (const i of entry.items) if (i.status === 'pending' || i.status === 'creating') i.status = 'cancelled';
      entry.scheme = { ...s, status: 'cancelled', message: null, finished_at: instant };
      return;
    }
    if (s.status !== 'running' && s.status !== 'queued') return;
    // The first read creates half, the next one the rest (two polls show a run moving).
    const pending = entry.items.filter((i) => i.status === 'pending');
    const batch = s.started_at ? pending : pending.slice(0, Math.max(1, Math.ceil(pending.length / 2)));
    for (const i of batch) {
      i.attempts++;
      const reason = db.failing[i.key];
      if (reason) Object.assign(i, { status: 'failed' as SchemeItemStatus, error: reason });
      else Object.assign(i, { status: 'created' as SchemeItemStatus, platform_id: `12000${i.id}`, error: null });
    }
    const left = entry.items.some((i) => i.status === 'pending');
    const failed = entry.items.some((i) => i.status === 'failed');
    entry.scheme = { ...s, status: left ? 'running' : failed ? 'partial' : 'done', started_at: instant, finished_at: left ? null : instant };
  };

  const handlers: Handlers = {
    '/publish/accounts': () => ({ list: db.accounts, outside_scope: seed.outsideScope ?? 0, fx }),
    '/publish/catalog': (b: RequestOf<'/publish/catalog'>) => ({
      list: db.catalog.filter((c) => c.kind === (b.platform === 'dj' ? 'drama' : 'product') && (!b.keyword || c.name.toLowerCase().includes(b.keyword.toLowerCase()))),
    }),
    '/publish/materials': (b: RequestOf<'/publish/materials'>) => {
      const rows = db.materials.filter(
        (m) =>
          (!b.kind || m.kind === b.kind) &&
          (!b.drama_id || m.drama?.id === b.drama_id) &&
          (!b.product_id || m.product?.id === b.product_id) &&
          (!b.ids || b.ids.includes(m.id)) &&
          (!b.keyword || m.file_name.includes(b.keyword)),
      );
      return { list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: rows.length };
    },
    '/publish/link_preview': (b: RequestOf<'/publish/link_preview'>) => {
      const item = db.catalog.find((c) => c.id === (b.drama_id ?? b.product_id));
      if (!item) return new MockRefusal('Not found');
      return {
        site: { id: item.site.id, name: item.site.name, domain: item.site.domain },
        template: item.site.link_template,
        link: `https://${item.site.domain}/play/${item.external_id}/${b.episode ?? 1}`,
        url_tags: 'c={{campaign.id}}',
        unsupported: [],
        pixel_id: item.site.pixel_id,
      };
    },
    '/publish/preview': (b: RequestOf<'/publish/preview'>) => expand(b.draft),
    '/publish/submit': (b: RequestOf<'/publish/submit'>) => {
      const p = expand(b.draft);
      const first = p.issues.find((i) => i.level === 'error');
      if (first) return new MockRefusal(first.message, { issues: p.issues });
      const id = ++nextId;
      const items: SchemeItem[] = [];
      for (const a of p.accounts) {
        const ref = { id: a.ad_account_id, name: a.name, platform_id: a.platform_id, currency: a.currency };
        const item = (level: SchemeItemLevel, key: string, name: string): SchemeItem => ({
          id: ++nextId, level, key, parent_id: null, ad_account: ref, name, status: 'pending', platform_id: null, object_id: null, waiting_for: null, error: null, attempts: 0, material_id: null, updated_at: instant,
        });
        for (const c of a.campaigns) {
          items.push(item('campaign', c.key, c.name));
          for (const s of c.adsets) {
            items.push(item('adset', s.key, s.name));
            for (const ad of s.ads) items.push(item('ad', ad.key, ad.name));
          }
        }
      }
      const title = titleOf(b.draft);
      const scheme = schemeSchema.parse({
        id,
        name: p.scheme_name,
        platform: b.draft.platform,
        status: 'running',
        drama: title && title.kind === 'drama' ? { id: title.id, name: title.name } : null,
        product: title && title.kind === 'product' ? { id: title.id, name: title.name } : null,
        created_by: { id: 1, name: 'Manager' },
        department: null,
        template: b.template_id ? { id: b.template_id, name: db.templates.find((t) => t.id === b.template_id)?.name ?? '' } : null,
        launch: b.draft.launch,
        counts: countsOf(items),
        created_objects: { campaigns: 0, adsets: 0, ads: 0 },
        planned: { accounts: p.totals.accounts, campaigns: p.totals.campaigns, adsets: p.totals.adsets, ads: p.totals.ads },
        daily_budget_usd: p.totals.daily_budget_usd,
        task_id: id + 1,
        start_task_id: b.draft.launch.mode === 'paused' ? null : id + 2,
        message: null,
        created_at: instant,
        started_at: null,
        finished_at: null,
      });
      db.schemes.unshift({ scheme, draft: b.draft, items });
      return { scheme_id: id, task_id: id + 1, totals: p.totals };
    },
    '/publish-schemes/list': (b: RequestOf<'/publish-schemes/list'>) => {
      const rows = db.schemes.filter((s) => (!b.platform || s.scheme.platform === b.platform) && (!b.status || s.scheme.status === b.status) && (!b.keyword || s.scheme.name.includes(b.keyword))).map(refresh);
      return { list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: rows.length };
    },
    '/publish-schemes/get': (b: RequestOf<'/publish-schemes/get'>) => {
      const entry = db.schemes.find((s) => s.scheme.id === b.id);
      if (!entry) return new MockRefusal('Scheme not found');
      advance(entry);
      const scheme = refresh(entry);
      const byAccount = new Map<number, SchemeItem[]>();
      for (const i of entry.items) byAccount.set(i.ad_account.id, [...(byAccount.get(i.ad_account.id) ?? []), i]);
      return { ...scheme, draft: entry.draft, accounts: [...byAccount.values()].map((list) => ({ ad_account: list[0]!.ad_account, counts: countsOf(list) })) };
    },
    '/publish-schemes/items': (b: RequestOf<'/publish-schemes/items'>) => {
      const entry = db.schemes.find((s) => s.scheme.id === b.scheme_id);
      const rows = (entry?.items ?? []).filter((i) => (!b.status || i.status === b.status) && (!b.level || i.level === b.level) && (!b.ad_account_id || i.ad_account.id === b.ad_account_id));
      return { list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: rows.length };
    },
    '/publish-schemes/retry_failed': (b: RequestOf<'/publish-schemes/retry_failed'>) => {
      const entry = db.schemes.find((s) => s.scheme.id === b.id)!;
      const failed = entry.items.filter((i) => i.status === 'failed');
      for (const i of failed) {
        i.status = 'pending';
        i.error = null;
        delete db.failing[i.key];
      }
      entry.scheme = { ...entry.scheme, status: 'running', finished_at: null };
      return { items: failed.length, task_id: entry.scheme.task_id };
    },
    '/publish-schemes/cancel': (b: RequestOf<'/publish-schemes/cancel'>) => {
      const entry = db.schemes.find((s) => s.scheme.id === b.id)!;
      entry.scheme = { ...entry.scheme, status: 'cancelling' };
      return { items: entry.items.filter((i) => i.status === 'pending').length, task_id: entry.scheme.task_id };
    },
    '/publish-schemes/draft': (b: RequestOf<'/publish-schemes/draft'>) => {
      const entry = db.schemes.find((s) => s.scheme.id === b.id);
      if (!entry) return new MockRefusal('Scheme not found');
      return { draft: { ...entry.draft, scheme_name: null, launch: { mode: 'paused' as const } }, source_scheme_id: b.id };
    },
    '/publish-templates/list': (b: RequestOf<'/publish-templates/list'>) => ({ list: db.templates.filter((t) => t.platform === b.platform) }),
    '/publish-templates/save': (b: RequestOf<'/publish-templates/save'>) => {
      const existing = b.id ? db.templates.find((t) => t.id === b.id) : undefined;
      const saved = publishTemplateSchema.parse({
        id: existing?.id ?? ++nextId,
        name: b.name,
        platform: b.platform,
        visibility: b.visibility,
        owner: { id: 1, name: 'Manager' },
        department: null,
        editable: true,
        settings: b.settings,
        created_at: existing?.created_at ?? instant,
        updated_at: instant,
      });
      db.templates = existing ? db.templates.map((t) => (t.id === saved.id ? saved : t)) : [...db.templates, saved];
      return saved;
    },
    '/publish-templates/delete': (b: RequestOf<'/publish-templates/delete'>) => {
      const before = db.templates.length;
      db.templates = db.templates.filter((t) => t.id !== b.id);
      return { deleted: before - db.templates.length };
    },
  };
  return { handlers, db, expand: (draft: unknown) => expand(publishDraftSchema.parse(draft)) };
}
