import { randomBytes } from 'node:crypto';
import type { CreateSiteBody, EditSiteBody, ListSitesBody, Site } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { assertPixelExists } from '../pixels/pixels.service.ts';
import { findSite, findWebhookSecretEnc, insertSite, listSites, rotateSiteSecret, updateSite } from './sites.repository.ts';

export { webhookPath } from './sites.repository.ts';

export interface SiteServiceDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  publicUrl: string;
  /** Told after a site was created, edited, deleted or given a new secret (the simulator's registration). */
  onChanged?: (siteId: number) => Promise<void>;
  /** The order webhook's health per site (features/orders), added to list and detail answers. */
  orderHealth?: (siteIds: number[], now: Date) => Promise<Map<number, Pick<Site, 'webhook_health' | 'recent_deliveries'>>>;
}

/** A new order-webhook secret: 32 random bytes, url-safe, so it pastes into any site's config. */
const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** What the audit log keeps of a site: everything but the secret. */
const auditView = (s: Site) => ({ name: s.name, domain: s.domain, platform: s.platform, link_template: s.link_template, pixel_id: s.pixel?.id ?? null, remark: s.remark });

/** Sites (站点): company catalogs every holder of /auth/site reads and edits (docs/api-assets.md). */
export function createSiteService({ db, clock, secrets, publicUrl, onChanged, orderHealth }: SiteServiceDeps) {
  const changed = async (id: number) => {
    await onChanged?.(id);
  };
  const withHealth = async (sites: Site[]): Promise<Site[]> => {
    if (!orderHealth) return sites;
    const health = await orderHealth(sites.map((s) => s.id), clock.now());
    return sites.map((s) => ({ ...s, ...health.get(s.id) }));
  };

  async function load(id: number): Promise<Site> {
    const site = await findSite(db, id, publicUrl);
    if (!site) throw new AppError('SITE_NOT_FOUND');
    return site;
  }

  async function assertPixel(pixelId: number | null | undefined) {
    if (pixelId != null) await assertPixelExists(db, pixelId, 'pixel_id');
  }

  const domainTaken = (domain: string | undefined) => new AppError('SITE_DOMAIN_TAKEN', { domain }, 'domain');

  return {
    async list(body: ListSitesBody) {
      const page = await listSites(db, body, publicUrl);
      return { ...page, list: await withHealth(page.list) };
    },

    /** One site with its order webhook's health and last deliveries. */
    async detail(id: number): Promise<Site> {
      const site = await load(id);
      return (await withHealth([site]))[0]!;
    },

    /** Creates a site with a fresh webhook secret, answered this once (only its ciphertext is kept). */
    async create(ctx: RequestContext, body: CreateSiteBody): Promise<{ id: number; webhook_secret: string }> {
      await assertPixel(body.pixel_id);
      const secret = newWebhookSecret();
      const secretEnc = await secrets.encrypt(secret);
      try {
        const id = await db.transaction().execute(async (trx) => {
          const siteId = await insertSite(trx, {
            name: body.name,
            domain: body.domain,
            platform: body.platform,
            link_template: body.link_template,
            pixel_id: body.pixel_id ?? null,
            remark: body.remark ?? '',
            webhook_secret_enc: secretEnc,
            created_at: clock.now(),
            updated_at: clock.now(),
          });
          const after = (await findSite(trx, siteId, publicUrl))!;
          await writeAudit(trx, ctx, { action: 'site.create', entity_type: 'site', entity_id: siteId, after: auditView(after) });
          return siteId;
        });
        await changed(id);
        return { id, webhook_secret: secret };
      } catch (err) {
        if (isUniqueViolation(err)) throw domainTaken(body.domain);
        throw err;
      }
    },

    async edit(ctx: RequestContext, body: EditSiteBody): Promise<Site> {
      const before = await load(body.id);
      if (body.pixel_id !== undefined) await assertPixel(body.pixel_id);
      // The catalog's kind follows the platform (dramas for dj, products for ec).
      if (body.platform !== undefined && body.platform !== before.platform && before.catalog_count > 0) {
        throw new AppError('SITE_PLATFORM_LOCKED', { count: before.catalog_count }, 'platform');
      }
      try {
        const after = await db.transaction().execute(async (trx) => {
          await updateSite(trx, body.id, {
            ...(body.name !== undefined && { name: body.name }),
            ...(body.domain !== undefined && { domain: body.domain }),
            ...(body.platform !== undefined && { platform: body.platform }),
            ...(body.link_template !== undefined && { link_template: body.link_template }),
            ...(body.pixel_id !== undefined && { pixel_id: body.pixel_id }),
            ...(body.remark !== undefined && { remark: body.remark }),
            updated_at: clock.now(),
          });
          const after = (await findSite(trx, body.id, publicUrl))!;
          await writeAudit(trx, ctx, { action: 'site.edit', entity_type: 'site', entity_id: body.id, before: auditView(before), after: auditView(after) });
          return after;
        });
        await changed(body.id);
        return after;
      } catch (err) {
        if (isUniqueViolation(err)) throw domainTaken(body.domain);
        throw err;
      }
    },

    /** Soft delete: the domain becomes free; the catalog stays for history but leaves every list. */
    async remove(ctx: RequestContext, id: number) {
      const before = await load(id);
      await db.transaction().execute(async (trx) => {
        await updateSite(trx, id, { deleted_at: clock.now(), updated_at: clock.now() });
        await writeAudit(trx, ctx, { action: 'site.delete', entity_type: 'site', entity_id: id, before: auditView(before) });
      });
      await changed(id);
    },

    /**
     * A new webhook secret, answered once. The previous one keeps working for 24 hours (API.md
     * "Orders"), so the site can switch without losing orders; rotating again ends it at once.
     */
    async rotateSecret(ctx: RequestContext, id: number): Promise<{ id: number; webhook_secret: string }> {
      await load(id);
      const secret = newWebhookSecret();
      const secretEnc = await secrets.encrypt(secret);
      await db.transaction().execute(async (trx) => {
        await rotateSiteSecret(trx, id, secretEnc, clock.now());
        await writeAudit(trx, ctx, { action: 'site.rotate_secret', entity_type: 'site', entity_id: id });
      });
      await changed(id);
      return { id, webhook_secret: secret };
    },

    /** The site's webhook secret in clear, for the orders feature that verifies signatures. */
    async webhookSecret(id: number): Promise<string | undefined> {
      const enc = await findWebhookSecretEnc(db, id);
      return enc === undefined ? undefined : secrets.decrypt(enc);
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
