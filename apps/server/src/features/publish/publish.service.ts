import {
  AD_ACCOUNT_STATUS,
  PUBLISH_PATH_OF,
  both,
  publishDraftSchema,
  publishLaunchSchema,
  publishTemplateSettingsSchema,
  type LinkPreview,
  type ListSchemeItemsBody,
  type ListSchemesBody,
  type Platform,
  type PublishAccountOption,
  type PublishAccountsBody,
  type PublishAccountsResult,
  type PublishCatalogItem,
  type PublishDraft,
  type PublishMaterial,
  type PublishMaterialsBody,
  type PublishPreview,
  type PublishTemplate,
  type SaveTemplateBody,
  type Scheme,
  type SchemeDetail,
  type SchemeItem,
} from '@ads/contracts';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import { isManager, type RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { latestRates } from '../../lib/fx.ts';
import { DEFAULT_NAMING_TEMPLATES } from '../../lib/naming.ts';
import { platformDetail } from '../../lib/platform-errors.ts';
import { assertWithin, visibleAdAccountIds, visibleUserIds } from '../../lib/scope.ts';
import { iso } from '../../lib/sql.ts';
import { dayIn } from '../../lib/tz.ts';
import { toMajor } from '../../platform/currency.ts';
import { PlatformError, type AdPlatformClient } from '../../platform/types.ts';
import { AdSyncNoTokenError, type createAdSync } from '../ad-data/ad-sync.service.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { pushesFor, type MaterialService } from '../materials/materials.service.ts';
import { expandDraft, issueIn, issueOf, minimumDailyBudget, type CampaignSpec, type Plan, type PlanAccount, type PlanInput, type PlanIssue } from './publish.plan.ts';
import {
  accountCounts,
  catalog,
  findScheme,
  findTemplate,
  listItems,
  listSchemes,
  listTemplates,
  liveDrama,
  liveProduct,
  pagesById,
  pagesOfAccounts,
  pixelsOfAccounts,
  publishAccounts,
  schemeDraft,
  type SchemeRow,
  type TemplateRow,
} from './publish.repository.ts';

/** The job that creates a scheme's objects (publish.jobs.ts), one run at a time per scheme. */
export const SCHEME_JOB = 'publish-scheme';
/** The start task: switches a scheme's campaigns on, now or at a time. */
export const START_JOB = 'publish-start';
export const schemeKey = (schemeId: number) => `scheme:${schemeId}`;

/** Placeholders of a site's link template that name created objects → the platform's url_tags macros. */
const MACROS: Record<string, string> = {
  campaign_id: '{{campaign.id}}',
  adset_id: '{{adset.id}}',
  ad_id: '{{ad.id}}',
  campaign_name: '{{campaign.name}}',
  adset_name: '{{adset.name}}',
  ad_name: '{{ad.name}}',
  placement: '{{placement}}',
};

/** A site's link template filled for a drama / product and episode; object placeholders become url_tags macros. */
export function fillLinkTemplate(template: string, values: { drama_id?: string; product_id?: string; episode?: number }): { link: string; url_tags: string; unsupported: string[] } {
  const filled = template
    .replace(/\{drama_id\}/g, encodeURIComponent(values.drama_id ?? ''))
    .replace(/\{product_id\}/g, encodeURIComponent(values.product_id ?? ''))
    .replace(/\{episode\}/g, String(values.episode ?? 1));
  const q = filled.indexOf('?');
  const head = q === -1 ? filled : filled.slice(0, q);
  const query = q === -1 ? '' : filled.slice(q + 1);
  const unsupported = [...head.matchAll(/\{(\w+)\}/g)].map((m) => `{${m[1]}}`);
  const kept: string[] = [];
  const tags: string[] = [];
  for (const part of query.split('&').filter(Boolean)) {
    const [k, v = ''] = part.split('=');
    const m = /^\{(\w+)\}$/.exec(v);
    if (m && MACROS[m[1]!]) tags.push(`${k}=${MACROS[m[1]!]}`);
    else kept.push(part);
  }
  return { link: kept.length ? `${head}?${kept.join('&')}` : head, url_tags: tags.join('&'), unsupported };
}

export interface PublishServiceDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  platform: AdPlatformClient | undefined;
  /** Tokens per ad account (the validate-only checks of the preview). */
  sync: ReturnType<typeof createAdSync> | undefined;
  materials: MaterialService;
  reportTimezone: string;
}

type Actor = RequestContext['actor'];

/** Statuses from which a scheme is over (retry may start it again). */
const FINAL = new Set(['done', 'partial', 'failed', 'cancelled']);

export function createPublishService({ db, clock, jobs, platform, sync, materials, reportTimezone }: PublishServiceDeps) {
  /** Each wizard is its own path: a draft for dramas needs /advertising/publish, one for products /advertising/publish-ec. */
  function assertPlatformPath(actor: Actor, platform: Platform) {
    if (!actor.pathSet.has(PUBLISH_PATH_OF[platform])) throw new AppError('FORBIDDEN');
  }

  async function accountMaps(actor: Actor, ids: readonly number[]): Promise<Map<number, PlanAccount>> {
    const rows = await publishAccounts(db, ids);
    const [pages, pixels] = await Promise.all([pagesOfAccounts(db, ids, actor.id), pixelsOfAccounts(db, ids)]);
    const out = new Map<number, PlanAccount>();
    for (const r of rows) {
      out.set(r.id, {
        id: r.id,
        platform_id: r.platform_id,
        name: r.name,
        currency: r.currency,
        timezone_name: r.timezone_name,
        account_status: r.account_status,
        platform: r.platform,
        has_token: r.token_status === 'valid' || r.token_status === 'expiring',
        pages: new Map(pages.filter((p) => p.ad_account_id === r.id).map((p) => [p.id, { platform_id: p.platform_id, name: p.name }])),
        pixels: new Map(pixels.filter((p) => p.ad_account_id === r.id).map((p) => [p.id, { platform_id: p.platform_id, name: p.name }])),
      });
    }
    return out;
  }

  /** Everything expandDraft reads, with the scope checks that refuse (403) rather than report. */
  async function planInput(ctx: RequestContext, draft: PublishDraft): Promise<PlanInput> {
    assertPlatformPath(ctx.actor, draft.platform);
    const ids = [...new Set(draft.where.accounts.map((a) => a.ad_account_id))];
    const existing = await publishAccounts(db, ids);
    if (existing.length !== ids.length) throw new AppError('AD_ACCOUNT_NOT_FOUND', {}, 'where.accounts');
    // Publishing only to ad accounts in the caller's own data scope (PRODUCT.md), whatever their asset scope.
    assertWithin(await visibleAdAccountIds(db, ctx.actor), ids);
    const accounts = await accountMaps(ctx.actor, ids);

    const c = draft.creatives;
    const materialIds = c.source === 'materials' ? [...c.videos.flatMap((v) => [v.material_id, ...(v.cover_material_id ? [v.cover_material_id] : [])]), ...c.images] : [];
    const visible = await materials.visibleForPublish(ctx.actor, materialIds);
    const postPages = c.source === 'posts' ? await pagesById(db, c.posts.map((p) => p.page_id)) : [];

    let title: PlanInput['title'] = null;
    if (draft.platform === 'dj' && draft.what.drama_id) {
      const d = await liveDrama(db, draft.what.drama_id);
      if (d) title = { kind: 'drama', id: d.id, name: d.name };
    }
    if (draft.platform === 'ec' && draft.what.product_id) {
      const p = await liveProduct(db, draft.what.product_id);
      if (p) title = { kind: 'product', id: p.id, name: p.name };
    }
    const now = clock.now();
    const today = dayIn(now.getTime(), reportTimezone);
    const rates = await latestRates(db, [...accounts.values()].map((a) => a.currency), today);
    const schemeName = draft.scheme_name?.trim() || `${title?.name ?? draft.platform}-${today.replaceAll('-', '')}`;
    return {
      draft,
      schemeName,
      publisher: { id: ctx.actor.id, account: ctx.actor.account, name: ctx.actor.name },
      title,
      accounts,
      materials: new Map(visible.map((m) => [m.id, m])),
      postPages: new Map(postPages.map((p) => [p.id, { platform_id: p.platform_id, name: p.name }])),
      rate: (currency) => rates.get(currency.toUpperCase()) ?? null,
      date: today.replaceAll('-', ''),
      now,
    };
  }

  /**
   * The platform's own checks without creating anything (execution_options validate_only): each
   * account's first campaign. Ad sets, creatives and ads need their parents to exist, so our rules
   * (publish.plan.ts) cover them before submit and the engine reports the platform's word per item.
   */
  async function platformChecks(input: PlanInput, plan: Plan): Promise<{ issues: PlanIssue[]; checked: boolean }> {
    if (!platform || !sync) return { issues: [], checked: false };
    const issues: PlanIssue[] = [];
    let checked = false;
    const firsts = new Map<number, (typeof plan.items)[number]>();
    for (const item of plan.items) if (item.level === 'campaign' && !firsts.has(item.ad_account_id)) firsts.set(item.ad_account_id, item);
    await Promise.all(
      [...firsts].map(async ([accountId, item]) => {
        const account = input.accounts.get(accountId)!;
        if (!account.has_token) return;
        const spec = item.spec as CampaignSpec;
        try {
          await sync.withToken(accountId, (token) =>
            platform.createCampaign(
              token,
              account.platform_id,
              {
                name: item.name,
                objective: spec.objective,
                status: 'PAUSED',
                specialAdCategories: spec.special_ad_categories,
                dailyBudgetMinor: spec.daily_budget_minor,
                lifetimeBudgetMinor: spec.lifetime_budget_minor,
                bidStrategy: spec.bid_strategy,
                stopTime: spec.stop_time ? new Date(spec.stop_time) : null,
              },
              { validateOnly: true },
            ),
          );
          checked = true;
        } catch (err) {
          if (err instanceof PlatformError && (err.kind === 'invalid_request' || err.kind === 'permission' || err.kind === 'not_found')) {
            checked = true;
            issues.push({ ...issueOf('error', 'PUB_PLATFORM_CHECK', { name: account.name, reason: platformDetail(err) }, { ad_account_id: accountId, key: item.key }), source: 'platform', code: `PLATFORM_${err.details.code ?? ''}${err.details.subcode ? `_${err.details.subcode}` : ''}` });
          } else {
            const reason = err instanceof PlatformError ? platformDetail(err) : err instanceof AdSyncNoTokenError ? both('PUB_ITEM_NO_TOKEN').en : String(err);
            issues.push({ ...issueOf('warning', 'PUB_PLATFORM_UNCHECKED', { name: account.name, reason }, { ad_account_id: accountId }), source: 'platform' });
          }
        }
      }),
    );
    return { issues, checked };
  }

  async function previewOf(ctx: RequestContext, draft: PublishDraft, validate: boolean) {
    const input = await planInput(ctx, draft);
    const plan = expandDraft(input);
    const rulesOk = !plan.issues.some((i) => i.level === 'error');
    // The platform is asked only about a draft our own rules accept (a broken one would only repeat them).
    const platformPart = validate && rulesOk ? await platformChecks(input, plan) : { issues: [], checked: false };
    const issues = [...plan.issues, ...platformPart.issues];
    return { input, plan, issues, checked: platformPart.checked };
  }

  function toScheme(r: SchemeRow, lang: 'zh' | 'en'): Scheme {
    const planned = r.planned as Scheme['planned'];
    const counts = r.counts ?? { total: 0, pending: 0, creating: 0, created: 0, failed: 0, cancelled: 0 };
    return {
      id: r.id,
      name: r.name,
      platform: r.platform,
      status: r.status,
      drama: r.drama_id !== null ? { id: r.drama_id, name: r.drama_name ?? '' } : null,
      product: r.product_id !== null ? { id: r.product_id, name: r.product_name ?? '' } : null,
      created_by: { id: r.created_by, name: r.created_by_name },
      department: r.department_id !== null ? { id: r.department_id, name: r.department_name ?? '' } : null,
      template: r.template_id !== null ? { id: r.template_id, name: r.template_name ?? '' } : null,
      launch: publishLaunchSchema.parse(r.launch),
      counts: { total: Number(counts.total), pending: Number(counts.pending), creating: Number(counts.creating), created: Number(counts.created), failed: Number(counts.failed), cancelled: Number(counts.cancelled) },
      created_objects: r.created_objects ?? { campaigns: 0, adsets: 0, ads: 0 },
      planned,
      daily_budget_usd: Number(r.daily_budget_usd_cents) / 100,
      task_id: r.task_id === null ? null : Number(r.task_id),
      start_task_id: r.start_task_id === null ? null : Number(r.start_task_id),
      message: lang === 'en' ? (r.message_en ?? r.message) : r.message,
      created_at: iso(r.created_at)!,
      started_at: iso(r.started_at),
      finished_at: iso(r.finished_at),
    };
  }

  async function visibleScheme(actor: Actor, id: number) {
    const row = await findScheme(db, id, await visibleUserIds(db, actor));
    if (!row) throw new AppError('SCHEME_NOT_FOUND');
    return row;
  }

  /** Only the publisher (or a manager) acts on a scheme; leaders see their people's. */
  function assertActsOn(actor: Actor, row: { created_by: number }) {
    if (row.created_by !== actor.id && !isManager(actor)) throw new AppError('FORBIDDEN_SCOPE');
  }

  function toTemplate(r: TemplateRow, actor: Actor): PublishTemplate {
    return {
      id: r.id,
      name: r.name,
      platform: r.platform,
      visibility: r.visibility,
      owner: { id: r.owner_user_id, name: r.owner_name },
      department: r.department_id !== null ? { id: r.department_id, name: r.department_name ?? '' } : null,
      editable: r.owner_user_id === actor.id || isManager(actor),
      settings: publishTemplateSettingsSchema.parse(r.settings),
      created_at: iso(r.created_at)!,
      updated_at: iso(r.updated_at)!,
    };
  }

  /** Names made by the scheme's templates parse back into their dimensions in the ad-data sync (app_settings naming_templates). */
  async function rememberNamingTemplates(trx: Db, draft: PublishDraft) {
    const row = await trx.selectFrom('app_settings').select('value').where('key', '=', 'naming_templates').executeTakeFirst();
    let current: string[] = DEFAULT_NAMING_TEMPLATES;
    if (row) {
      const parsed = z.array(z.string()).safeParse(typeof row.value === 'string' ? JSON.parse(row.value) : row.value);
      if (parsed.success) current = parsed.data;
    }
    const wanted = [draft.naming.campaign, draft.naming.adset, draft.naming.ad].filter((t) => /\{\w+\}/.test(t));
    const next = [...new Set([...current, ...wanted])].slice(-100);
    if (next.length === current.length && next.every((t, i) => t === current[i])) return;
    const value = JSON.stringify(next);
    await trx
      .insertInto('app_settings')
      .values({ key: 'naming_templates', value, updated_at: clock.now() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: clock.now() }))
      .execute();
  }

  return {
    assertPlatformPath,

    async accounts(ctx: RequestContext, body: PublishAccountsBody): Promise<PublishAccountsResult> {
      assertPlatformPath(ctx.actor, body.platform);
      const visible = await visibleAdAccountIds(db, ctx.actor);
      const rows = await publishAccounts(db, visible, body.keyword);
      const all = visible === null ? rows.length : (await publishAccounts(db, null, body.keyword)).length;
      const ids = rows.map((r) => r.id);
      const [pages, pixels] = await Promise.all([pagesOfAccounts(db, ids, ctx.actor.id), pixelsOfAccounts(db, ids)]);
      const today = dayIn(clock.now().getTime(), reportTimezone);
      const rates = await latestRates(db, rows.map((r) => r.currency), today);
      const minimumOf = (currency: string) => {
        const minor = minimumDailyBudget(currency, rates.get(currency.toUpperCase()) ?? null);
        return minor === null ? null : toMajor(minor, currency);
      };
      const list = rows.map(
        (r): PublishAccountOption => ({
          id: r.id,
          platform_id: r.platform_id,
          name: r.name,
          currency: r.currency,
          timezone_name: r.timezone_name,
          account_status: r.account_status,
          balance: toMajor(Number(r.balance_minor), r.currency),
          spend_cap: r.spend_cap_minor === null ? null : toMajor(Number(r.spend_cap_minor), r.currency),
          token_status: (r.token_status as PublishAccountOption['token_status']) ?? null,
          token_expires_at: iso(r.token_expires_at),
          blocked:
            r.account_status !== AD_ACCOUNT_STATUS.ACTIVE && r.account_status !== AD_ACCOUNT_STATUS.IN_GRACE_PERIOD
              ? 'account_disabled'
              : r.token_status !== 'valid' && r.token_status !== 'expiring'
                ? 'no_token'
                : r.platform && r.platform !== body.platform
                  ? 'other_platform'
                  : null,
          pages: pages.filter((p) => p.ad_account_id === r.id).map((p) => ({ id: p.id, platform_id: p.platform_id, name: p.name, picture_url: p.picture_url })),
          pixels: pixels.filter((p) => p.ad_account_id === r.id).map((p) => ({ id: p.id, platform_id: p.platform_id, name: p.name, last_fired_at: iso(p.last_fired_at) })),
          // Meta's minimum for an ad set billed on impressions (what the wizard creates), as the preview checks it.
          min_daily_budget: minimumOf(r.currency),
        }),
      );
      return { list, outside_scope: Math.max(0, all - rows.length), fx: Object.fromEntries(rates) };
    },

    async catalog(ctx: RequestContext, body: { platform: Platform; keyword?: string; site_id?: number; limit: number }): Promise<{ list: PublishCatalogItem[] }> {
      assertPlatformPath(ctx.actor, body.platform);
      const rows = await catalog(db, body.platform, body);
      return {
        list: rows.map((r) => ({
          id: r.id,
          kind: body.platform === 'dj' ? 'drama' : 'product',
          name: r.name,
          external_id: r.external_id,
          language: r.language,
          episode_count: r.episode_count,
          cover_url: r.cover_url,
          site: { id: r.site_id, name: r.site_name, domain: r.domain, link_template: r.link_template, pixel_id: r.pixel_id },
          videos: Number(r.videos),
          images: Number(r.images),
        })),
      };
    },

    async materials(ctx: RequestContext, body: PublishMaterialsBody): Promise<{ list: PublishMaterial[]; total: number }> {
      assertPlatformPath(ctx.actor, body.platform);
      const { ad_account_ids: accountIds, ...filters } = body;
      const page = await materials.list(ctx, { ...filters, platform: body.platform });
      let ready = new Map<number, number[]>();
      if (accountIds?.length && page.list.length) {
        assertWithin(await visibleAdAccountIds(db, ctx.actor), accountIds);
        const pushes = await pushesFor(
          db,
          page.list.map((m) => m.id),
          accountIds,
        );
        ready = new Map();
        for (const p of pushes) if (p.state === 'ready') ready.set(p.material_id, [...(ready.get(p.material_id) ?? []), p.ad_account_id]);
      }
      return {
        total: page.total,
        list: page.list.map((m) => ({
          id: m.id,
          kind: m.kind,
          file_name: m.file_name,
          duration_s: m.duration_s,
          width: m.width,
          height: m.height,
          thumbnail_url: m.thumbnail_url,
          file_url: m.file_url,
          drama: m.drama,
          product: m.product,
          language: m.language,
          editor: m.editor,
          tags: m.tags,
          created_at: m.created_at,
          ready_account_ids: ready.get(m.id) ?? [],
        })),
      };
    },

    async linkPreview(ctx: RequestContext, body: { drama_id?: number | null; product_id?: number | null; episode?: number | null }): Promise<LinkPreview> {
      if (body.drama_id) {
        assertPlatformPath(ctx.actor, 'dj');
        const d = await liveDrama(db, body.drama_id);
        if (!d) throw new AppError('PUB_DRAMA_NOT_FOUND', {}, 'drama_id');
        if (d.site_deleted_at) throw new AppError('LINK_NO_SITE', {}, 'drama_id');
        const filled = fillLinkTemplate(d.link_template, { drama_id: d.external_id, episode: body.episode ?? 1 });
        return { site: { id: d.site_id, name: d.site_name, domain: d.domain }, template: d.link_template, ...filled, pixel_id: d.pixel_id };
      }
      if (body.product_id) {
        assertPlatformPath(ctx.actor, 'ec');
        const p = await liveProduct(db, body.product_id);
        if (!p) throw new AppError('PUB_PRODUCT_NOT_FOUND', {}, 'product_id');
        if (p.site_deleted_at) throw new AppError('LINK_NO_SITE', {}, 'product_id');
        // A template without {product_id} cannot point at one product: its own page is the link.
        const filled = p.link_template.includes('{product_id}') ? fillLinkTemplate(p.link_template, { product_id: p.external_id }) : { ...fillLinkTemplate(p.url, {}), unsupported: [] };
        return { site: { id: p.site_id, name: p.site_name, domain: p.domain }, template: p.link_template, ...filled, pixel_id: p.pixel_id };
      }
      throw new AppError('PUB_NEED_DRAMA', {}, 'drama_id');
    },

    async preview(ctx: RequestContext, body: { draft: PublishDraft; validate: boolean }): Promise<PublishPreview> {
      const { input, plan, issues, checked } = await previewOf(ctx, body.draft, body.validate);
      return {
        ok: !issues.some((i) => i.level === 'error'),
        scheme_name: input.schemeName,
        issues: issues.map((i) => issueIn(i, ctx.lang)),
        totals: plan.totals,
        accounts: plan.accounts,
        platform_checked: checked,
      };
    },

    /**
     * Checks the draft as the preview does (platform included) and, with no error, stores the
     * scheme and one item per object in creation order, queues its run, and the start task when
     * it is to be switched on at a time.
     */
    async submit(ctx: RequestContext, body: { draft: PublishDraft; template_id?: number | null }) {
      const { input, plan, issues } = await previewOf(ctx, body.draft, true);
      const errors = issues.filter((i) => i.level === 'error');
      if (errors.length) {
        const err = new AppError('PUB_CHECKS_FAILED', { count: errors.length, first: errors[0]!.text });
        // The form shows every issue where it belongs, as the preview would.
        err.data = { issues: issues.map((i) => issueIn(i, ctx.lang)), errors: errors.filter((i) => i.field).map((i) => ({ field: `draft.${i.field}`, message: i.text[ctx.lang] })) };
        throw err;
      }
      if (body.template_id && !(await findTemplate(db, body.template_id))) throw new AppError('TEMPLATE_NOT_FOUND', {}, 'template_id');
      const draft = body.draft;
      const now = clock.now();
      const planned = { accounts: plan.totals.accounts, campaigns: plan.totals.campaigns, adsets: plan.totals.adsets, ads: plan.totals.ads };
      return db.transaction().execute(async (trx) => {
        const scheme = await trx
          .insertInto('publish_schemes')
          .values({
            name: input.schemeName,
            platform: draft.platform,
            status: 'queued',
            drama_id: input.title?.kind === 'drama' ? input.title.id : null,
            product_id: input.title?.kind === 'product' ? input.title.id : null,
            created_by: ctx.actor.id,
            department_id: ctx.actor.department_id,
            template_id: body.template_id ?? null,
            draft: JSON.stringify(draft),
            launch: JSON.stringify(draft.launch),
            planned: JSON.stringify(planned),
            daily_budget_usd_cents: Math.round(plan.totals.daily_budget_usd * 100),
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Items keep the plan's creation order (seq); inserted level by level, so parents have their ids before their children.
        const ids = new Map<string, number>();
        const CHUNK = 500;
        const ordered = plan.items.map((it, seq) => ({ it, seq }));
        for (const level of ['campaign', 'adset', 'creative', 'ad'] as const) {
          const ofLevel = ordered.filter((x) => x.it.level === level);
          for (let i = 0; i < ofLevel.length; i += CHUNK) {
          const part = ofLevel.slice(i, i + CHUNK);
          const rows = await trx
            .insertInto('publish_scheme_items')
            .values(
              part.map(({ it, seq }) => ({
                scheme_id: scheme.id,
                level: it.level,
                key: it.key,
                parent_id: it.parent_key ? (ids.get(it.parent_key) ?? null) : null,
                creative_item_id: it.creative_key ? (ids.get(it.creative_key) ?? null) : null,
                ad_account_id: it.ad_account_id,
                seq,
                // Creatives are named after the scheme, so a lookup finds this scheme's and no other's.
                name: it.level === 'creative' ? `S${scheme.id}·${it.key}` : it.name,
                spec: JSON.stringify(it.spec),
                material_id: it.material_id,
                cover_material_id: it.cover_material_id,
                created_at: now,
                updated_at: now,
              })),
            )
            .returning(['id', 'key'])
            .execute();
          for (const r of rows) ids.set(r.key, r.id);
          }
        }
        const taskId = await jobs.enqueue(SCHEME_JOB, { scheme_id: scheme.id }, { createdBy: ctx.actor.id, key: schemeKey(scheme.id), trx });
        if (draft.launch.mode === 'at') {
          const startTask = await jobs.enqueue(START_JOB, { scheme_id: scheme.id }, { createdBy: ctx.actor.id, startAt: new Date(draft.launch.at), trx });
          await trx.updateTable('publish_schemes').set({ start_task_id: startTask }).where('id', '=', scheme.id).execute();
        }
        await rememberNamingTemplates(trx, draft);
        await writeAudit(trx, ctx, { action: 'publish.submit', entity_type: 'publish_scheme', entity_id: scheme.id, after: { name: input.schemeName, platform: draft.platform, ...planned, launch: draft.launch, task_id: taskId } });
        return { scheme_id: scheme.id, task_id: taskId, totals: plan.totals };
      });
    },

    async listSchemes(ctx: RequestContext, body: ListSchemesBody) {
      const { rows, total } = await listSchemes(db, body, await visibleUserIds(db, ctx.actor), reportTimezone);
      return { list: rows.map((r) => toScheme(r, ctx.lang)), total };
    },

    async getScheme(ctx: RequestContext, id: number): Promise<SchemeDetail> {
      const row = await visibleScheme(ctx.actor, id);
      const draftRow = await schemeDraft(db, id);
      const accounts = await accountCounts(db, id);
      return {
        ...toScheme(row, ctx.lang),
        draft: publishDraftSchema.parse(draftRow!.draft),
        accounts: accounts.map((a) => ({
          ad_account: { id: a.id, name: a.name, platform_id: a.platform_id, currency: a.currency },
          counts: { total: Number(a.counts.total), pending: Number(a.counts.pending), creating: Number(a.counts.creating), created: Number(a.counts.created), failed: Number(a.counts.failed), cancelled: Number(a.counts.cancelled) },
        })),
      };
    },

    async items(ctx: RequestContext, body: ListSchemeItemsBody): Promise<{ list: SchemeItem[]; total: number }> {
      await visibleScheme(ctx.actor, body.scheme_id);
      const { rows, total } = await listItems(db, body);
      return {
        total,
        list: rows.map((r) => ({
          id: r.id,
          level: r.level,
          key: r.key,
          parent_id: r.parent_id,
          ad_account: { id: r.ad_account_id, name: r.account_name, platform_id: r.account_platform_id, currency: r.currency },
          name: r.name,
          status: r.status,
          platform_id: r.platform_id,
          object_id: r.object_id,
          waiting_for: r.waiting_for,
          error: ctx.lang === 'en' ? (r.error_en ?? r.error) : r.error,
          attempts: r.attempts,
          material_id: r.material_id,
          updated_at: iso(r.updated_at)!,
        })),
      };
    },

    /** Failed items (and what failed with them) go back to pending and the scheme runs again; created ones are never touched. */
    async retryFailed(ctx: RequestContext, id: number) {
      const row = await visibleScheme(ctx.actor, id);
      assertActsOn(ctx.actor, row);
      return db.transaction().execute(async (trx) => {
        const scheme = await trx.selectFrom('publish_schemes').select(['status']).where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
        if (!FINAL.has(scheme.status)) throw new AppError('SCHEME_BUSY');
        const now = clock.now();
        const res = await trx
          .updateTable('publish_scheme_items')
          .set({ status: 'pending', error: null, error_en: null, waiting_for: null, finished_at: null, updated_at: now })
          .where('scheme_id', '=', id)
          .where('status', '=', 'failed')
          .executeTakeFirst();
        const items = Number(res.numUpdatedRows);
        if (!items) throw new AppError('SCHEME_NOTHING_TO_RETRY');
        await trx.updateTable('publish_schemes').set({ status: 'queued', finished_at: null, cancel_requested_at: null, message: null, message_en: null, updated_at: now }).where('id', '=', id).execute();
        const taskId = await jobs.enqueue(SCHEME_JOB, { scheme_id: id, retry: true }, { createdBy: ctx.actor.id, key: schemeKey(id), trx });
        await writeAudit(trx, ctx, { action: 'publish.retry_failed', entity_type: 'publish_scheme', entity_id: id, after: { items, task_id: taskId } });
        return { items, task_id: taskId };
      });
    },

    /** Stops after the item under way: a queued scheme at once, a running one at its next check. */
    async cancel(ctx: RequestContext, id: number) {
      const row = await visibleScheme(ctx.actor, id);
      assertActsOn(ctx.actor, row);
      if (FINAL.has(row.status)) throw new AppError('SCHEME_FINISHED');
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('publish_schemes').set({ cancel_requested_at: now, status: 'cancelling', updated_at: now }).where('id', '=', id).execute();
        const pending = await trx.selectFrom('publish_scheme_items').select((eb) => eb.fn.countAll<number>().as('n')).where('scheme_id', '=', id).where('status', 'in', ['pending', 'creating']).executeTakeFirst();
        if (row.start_task_id) await jobs.cancel(Number(row.start_task_id)).catch(() => false);
        await writeAudit(trx, ctx, { action: 'publish.cancel', entity_type: 'publish_scheme', entity_id: id, after: { pending: Number(pending?.n ?? 0) } });
        // The run itself stops at its next check (between items), so nothing is left half-made.
        const task = row.task_id === null ? null : Number(row.task_id);
        return { items: Number(pending?.n ?? 0), task_id: task };
      });
    },

    /** "New from a past scheme": its draft, named anew and paused. */
    async draftOf(ctx: RequestContext, id: number) {
      await visibleScheme(ctx.actor, id);
      const row = await schemeDraft(db, id);
      const draft = publishDraftSchema.parse(row!.draft);
      return { draft: { ...draft, scheme_name: null, launch: { mode: 'paused' as const } }, source_scheme_id: id };
    },

    // ---- templates -----------------------------------------------------------------------

    async listTemplates(ctx: RequestContext, body: { platform: Platform; keyword?: string }) {
      assertPlatformPath(ctx.actor, body.platform);
      const rows = await listTemplates(db, body.platform, ctx.actor, body.keyword);
      return { list: rows.map((r) => toTemplate(r, ctx.actor)) };
    },

    async saveTemplate(ctx: RequestContext, body: SaveTemplateBody): Promise<PublishTemplate> {
      assertPlatformPath(ctx.actor, body.platform);
      const now = clock.now();
      if (body.id) {
        const existing = await findTemplate(db, body.id);
        if (!existing) throw new AppError('TEMPLATE_NOT_FOUND');
        if (existing.owner_user_id !== ctx.actor.id && !isManager(ctx.actor)) throw new AppError('TEMPLATE_NOT_EDITABLE');
        await db
          .updateTable('publish_templates')
          .set({ name: body.name, platform: body.platform, visibility: body.visibility, settings: JSON.stringify(body.settings), updated_at: now })
          .where('id', '=', body.id)
          .execute();
        await writeAudit(db, ctx, { action: 'publish.template_edit', entity_type: 'publish_template', entity_id: body.id, after: { name: body.name, visibility: body.visibility } });
        return toTemplate((await findTemplate(db, body.id))!, ctx.actor);
      }
      const row = await db
        .insertInto('publish_templates')
        .values({ name: body.name, platform: body.platform, visibility: body.visibility, owner_user_id: ctx.actor.id, department_id: ctx.actor.department_id, settings: JSON.stringify(body.settings), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeAudit(db, ctx, { action: 'publish.template_create', entity_type: 'publish_template', entity_id: row.id, after: { name: body.name, visibility: body.visibility } });
      return toTemplate((await findTemplate(db, row.id))!, ctx.actor);
    },

    async deleteTemplate(ctx: RequestContext, id: number) {
      const existing = await findTemplate(db, id);
      if (!existing) throw new AppError('TEMPLATE_NOT_FOUND');
      if (existing.owner_user_id !== ctx.actor.id && !isManager(ctx.actor)) throw new AppError('TEMPLATE_NOT_EDITABLE');
      const now = clock.now();
      await db.updateTable('publish_templates').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
      await writeAudit(db, ctx, { action: 'publish.template_delete', entity_type: 'publish_template', entity_id: id, before: { name: existing.name } });
      return { deleted: 1 };
    },
  };
}

export type PublishService = ReturnType<typeof createPublishService>;
