import { ControlError } from '../control/assets.ts';
import { isSupportedCurrency, parseMajor } from '../money.ts';
import type { SiteDrama, SitePackage, SiteProduct, SiteRecord, SiteStats } from '../store/state.ts';
import { isValidTimeZone } from '../time.ts';

// The company's sites as the app registers them with the simulator: validation of the
// control API's site bodies (create, replace, patch), defaults, and the public view.

/** Only loopback hosts may receive webhooks: the simulator must not reach the internet. */
export function assertLoopbackUrl(raw: string): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('webhook_url must be http(s)');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    throw new Error('webhook_url must be a loopback URL (localhost, 127.0.0.0/8 or [::1])');
  }
  return url;
}

export const SITE_DEFAULTS = {
  kind: 'drama' as const,
  currency: 'USD',
  timezone: 'UTC',
  parses_ids: false,
  organic_share: 0.15,
  refund_rate: 0.03,
  batch_size: 100,
};

const SITE_FIELDS = new Set([
  'id',
  'name',
  'domain',
  'webhook_url',
  'secret',
  'kind',
  'currency',
  'timezone',
  'parses_ids',
  'link_template',
  'dramas',
  'products',
  'packages',
  'organic_share',
  'refund_rate',
  'batch_size',
]);
const MAX_CATALOG = 1000;
const ID_RE = /^[\w.:-]{1,64}$/;
const HOST_RE = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const emptyStats = (): SiteStats => ({ requests: 0, delivered_events: 0, failed_requests: 0, dropped_events: 0 });

function fail(field: string, message: string): never {
  throw new ControlError(`${field}: ${message}`);
}

function text(b: Record<string, unknown>, field: string, max: number): string {
  const v = b[field];
  if (typeof v !== 'string' || v.trim() === '' || v.length > max) fail(field, `must be a non-empty string of at most ${max} characters`);
  return v.trim();
}

function number(b: Record<string, unknown>, field: string, min: number, max: number, integer = false): number {
  const v = b[field];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    fail(field, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return v;
}

function list(b: Record<string, unknown>, field: string, max: number): Record<string, unknown>[] {
  const v = b[field];
  if (!Array.isArray(v) || v.length > max || v.some((x) => typeof x !== 'object' || x === null || Array.isArray(x))) {
    fail(field, `must be an array of at most ${max} objects`);
  }
  return v as Record<string, unknown>[];
}

function externalId(item: Record<string, unknown>, field: string): string {
  const v = item.external_id;
  if (typeof v !== 'string' || v.length < 1 || v.length > 64) fail(field, 'external_id must be a string of 1–64 characters');
  return v;
}

function price(item: Record<string, unknown>, key: string, field: string, currency: string): string {
  const v = item[key];
  if (typeof v !== 'string' || parseMajor(v, currency) === undefined) {
    fail(field, `${key} must be a positive decimal string in major units of ${currency} (e.g. ${currency === 'JPY' ? '"1500"' : '"4.99"'})`);
  }
  return v;
}

function unique(items: Array<{ external_id: string }>, field: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.external_id)) fail(field, `duplicate external_id ${item.external_id}`);
    seen.add(item.external_id);
  }
}

/** Placeholders a link template may use (the app's site link templates). */
const TEMPLATE_TOKEN = /\{(\w+)\}/g;

export function templateUrl(template: string): URL {
  return new URL(template.replace(TEMPLATE_TOKEN, '__$1__'));
}

/**
 * Builds the site a create / replace / patch body describes. `existing` is the site being
 * replaced or patched; a patch keeps every field it does not name, a replace resets them.
 */
export function buildSite(
  input: unknown,
  mode: 'create' | 'replace' | 'patch',
  now: number,
  existing: SiteRecord | undefined,
  id: string,
): SiteRecord {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ControlError('the body must be a JSON object');
  const b = input as Record<string, unknown>;
  for (const key of Object.keys(b)) if (!SITE_FIELDS.has(key)) fail(key, 'unknown field');
  if (mode !== 'create' && b.id !== undefined && b.id !== id) fail('id', 'cannot be changed');
  const base = mode === 'patch' ? existing : undefined;
  const has = (field: string) => b[field] !== undefined;

  if (!ID_RE.test(id)) fail('id', 'must be 1–64 letters, digits or . _ : -');
  const name = has('name') ? text(b, 'name', 200) : (base?.name ?? 'site');

  let webhookUrl = base?.webhook_url;
  if (has('webhook_url') || !base) {
    const raw = typeof b.webhook_url === 'string' ? b.webhook_url : '';
    try {
      assertLoopbackUrl(raw);
    } catch (err) {
      fail('webhook_url', raw ? (err as Error).message : 'is required');
    }
    webhookUrl = raw;
  }

  let secret = base?.secret;
  if (has('secret') || !base) {
    if (typeof b.secret !== 'string' || b.secret.length < 8 || b.secret.length > 256) fail('secret', 'must be a string of 8–256 characters');
    secret = b.secret;
  }

  let domain = base?.domain;
  if (b.domain === null || (!base && !has('domain'))) domain = undefined;
  else if (has('domain')) {
    const d = typeof b.domain === 'string' ? b.domain.trim().toLowerCase() : '';
    if (!HOST_RE.test(d)) fail('domain', 'must be a host name such as drama.example.com');
    domain = d;
  }

  let kind = base?.kind ?? SITE_DEFAULTS.kind;
  if (has('kind')) {
    if (b.kind !== 'drama' && b.kind !== 'shop') fail('kind', 'must be "drama" or "shop"');
    kind = b.kind;
  }
  let currency = base?.currency ?? SITE_DEFAULTS.currency;
  if (has('currency')) {
    if (typeof b.currency !== 'string' || !/^[A-Z]{3}$/.test(b.currency) || !isSupportedCurrency(b.currency)) fail('currency', 'must be a supported ISO 4217 code (USD, EUR, JPY, …)');
    currency = b.currency;
  }
  let timezone = base?.timezone ?? SITE_DEFAULTS.timezone;
  if (has('timezone')) {
    if (typeof b.timezone !== 'string' || !isValidTimeZone(b.timezone)) fail('timezone', 'must be an IANA time zone such as Asia/Shanghai');
    timezone = b.timezone;
  }
  let parsesIds = base?.parses_ids ?? SITE_DEFAULTS.parses_ids;
  if (has('parses_ids')) {
    if (typeof b.parses_ids !== 'boolean') fail('parses_ids', 'must be a boolean');
    parsesIds = b.parses_ids;
  }

  let linkTemplate = base?.link_template;
  if (b.link_template === null || (!base && !has('link_template'))) linkTemplate = undefined;
  else if (has('link_template')) {
    const t = typeof b.link_template === 'string' ? b.link_template.trim() : '';
    let ok = t.length > 0 && t.length <= 2048;
    try {
      if (ok) ok = ['http:', 'https:'].includes(templateUrl(t).protocol);
    } catch {
      ok = false;
    }
    if (!ok) fail('link_template', 'must be an http(s) URL of at most 2048 characters with {placeholders}');
    linkTemplate = t;
  }

  // Prices are checked against the final currency, so a currency change with old prices fails.
  const rawDramas = has('dramas') ? list(b, 'dramas', MAX_CATALOG) : (base?.dramas ?? []);
  const dramas: SiteDrama[] = rawDramas.map((raw, i) => {
    const item = raw as Record<string, unknown>;
    const field = `dramas.${i}`;
    for (const key of Object.keys(item)) if (!['external_id', 'episodes', 'episode_price'].includes(key)) fail(field, `unknown field ${key}`);
    const drama: SiteDrama = { external_id: externalId(item, field), episodes: 60 };
    if (item.episodes !== undefined) drama.episodes = number(item, 'episodes', 1, 10_000, true);
    if (item.episode_price !== undefined) drama.episode_price = price(item, 'episode_price', field, currency);
    return drama;
  });
  unique(dramas, 'dramas');
  const rawProducts = has('products') ? list(b, 'products', MAX_CATALOG) : (base?.products ?? []);
  const products: SiteProduct[] = rawProducts.map((raw, i) => {
    const item = raw as Record<string, unknown>;
    const field = `products.${i}`;
    for (const key of Object.keys(item)) if (!['external_id', 'price'].includes(key)) fail(field, `unknown field ${key}`);
    return { external_id: externalId(item, field), price: price(item, 'price', field, currency) };
  });
  unique(products, 'products');
  const rawPackages = has('packages') ? list(b, 'packages', 50) : (base?.packages ?? []);
  const packages: SitePackage[] = rawPackages.map((raw, i) => {
    const item = raw as Record<string, unknown>;
    const field = `packages.${i}`;
    for (const key of Object.keys(item)) if (!['price', 'subscription_days'].includes(key)) fail(field, `unknown field ${key}`);
    const pkg: SitePackage = { price: price(item, 'price', field, currency) };
    if (item.subscription_days !== undefined) pkg.subscription_days = number(item, 'subscription_days', 1, 365, true);
    return pkg;
  });

  const organicShare = has('organic_share') ? number(b, 'organic_share', 0, 0.9) : (base?.organic_share ?? SITE_DEFAULTS.organic_share);
  const refundRate = has('refund_rate') ? number(b, 'refund_rate', 0, 0.5) : (base?.refund_rate ?? SITE_DEFAULTS.refund_rate);
  const batchSize = has('batch_size') ? number(b, 'batch_size', 1, 500, true) : (base?.batch_size ?? SITE_DEFAULTS.batch_size);

  return {
    id,
    name,
    webhook_url: webhookUrl!,
    secret: secret!,
    domain,
    kind,
    currency,
    timezone,
    parses_ids: parsesIds,
    link_template: linkTemplate,
    dramas,
    products,
    packages,
    organic_share: organicShare,
    refund_rate: refundRate,
    batch_size: batchSize,
    // A new site sends the orders of hours ending from now on; back-dating can move this back.
    dispatched_until: existing?.dispatched_until ?? now,
    created_at: existing?.created_at ?? now,
    updated_at: now,
    secret_updated_at: existing && existing.secret === secret ? existing.secret_updated_at : now,
    stats: existing?.stats ?? emptyStats(),
  };
}

/** A site of an older snapshot (before kinds, currencies and catalogs) with today's defaults. */
export function normaliseSite(raw: Partial<SiteRecord> & Pick<SiteRecord, 'id' | 'webhook_url' | 'secret' | 'dispatched_until' | 'created_at'>): SiteRecord {
  return {
    name: 'site',
    ...SITE_DEFAULTS,
    dramas: [],
    products: [],
    packages: [],
    updated_at: raw.created_at,
    secret_updated_at: raw.created_at,
    stats: emptyStats(),
    ...raw,
  };
}

/** The site as the control API shows it: everything but the secret. */
export function siteView(site: SiteRecord) {
  const { secret: _secret, ...rest } = site;
  return rest;
}
