import { createHmac } from 'node:crypto';
import type { Sim } from '../graph/context.ts';
import { minorToMajorString } from '../money.ts';
import { rng } from '../random.ts';
import { creativeLink } from '../routes/creatives.ts';
import type { AdRecord, SiteRecord } from '../store/state.ts';
import { addDays, HOUR_MS, localDate } from '../time.ts';

// Recharge orders for the simulated purchases, POSTed to each configured site's webhook (a
// loopback URL only) with an HMAC-SHA256 signature. An hour's orders are sent once the hour
// is over, so they match the Insights purchases of finished hours exactly; each carries the
// landing link with the campaign / ad set / ad ids. Payload: see README.md.

/** Hours of backlog handled per pass, so a jump of a month does not block the server. */
const MAX_HOURS_PER_PASS = 72;
const TIMEOUT_MS = 5000;

export interface OrderPayload {
  event: 'order.paid';
  order_no: string;
  site_id: string;
  amount: string;
  currency: string;
  paid_at: string;
  app_user_id: string;
  is_new_payer: boolean;
  country: string;
  landing: { url: string | null; campaign_id: string; adset_id: string; ad_id: string };
}

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

export function sign(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Expands the url_tags macros of reference §6 for an ad. */
function expandMacros(text: string, sim: Sim, ad: AdRecord): string {
  const s = sim.store.state;
  const values: Record<string, string> = {
    'campaign.id': ad.campaign_id,
    'campaign.name': s.campaigns[ad.campaign_id]?.name ?? '',
    'adset.id': ad.adset_id,
    'adset.name': s.adsets[ad.adset_id]?.name ?? '',
    'ad.id': ad.id,
    'ad.name': ad.name,
    placement: 'Facebook_Mobile_Feed',
    site_source_name: 'fb',
  };
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, key: string) => (key in values ? encodeURIComponent(values[key]!) : whole));
}

/** The landing URL a click on the ad opens: the creative link plus its url_tags, macros expanded. */
export function landingUrl(sim: Sim, ad: AdRecord): string | undefined {
  const creative = sim.store.state.creatives[ad.creative_id];
  const link = creative ? creativeLink(sim.store, creative) : undefined;
  if (!link) return undefined;
  const tags = creative?.url_tags ? expandMacros(creative.url_tags, sim, ad) : '';
  const expanded = expandMacros(link, sim, ad);
  return tags ? `${expanded}${expanded.includes('?') ? '&' : '?'}${tags}` : expanded;
}

function siteMatches(site: SiteRecord, url: string | undefined): boolean {
  if (!site.domain) return true;
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === site.domain || host.endsWith(`.${site.domain}`);
  } catch {
    return false;
  }
}

/** The orders of finished hours in (from, to] for one site. */
export function ordersFor(sim: Sim, site: SiteRecord, from: number, to: number): OrderPayload[] {
  const orders: OrderPayload[] = [];
  for (const account of Object.values(sim.store.state.ad_accounts)) {
    const owners = sim.delivery.owners(account.id);
    if (owners.length === 0) continue;
    const tz = account.timezone_name;
    for (let date = localDate(from, tz); date <= localDate(to, tz); date = addDays(date, 1)) {
      for (const owner of owners) {
        for (const [adId, cells] of sim.delivery.ownerDay(owner, date, to)) {
          const ad = sim.store.state.ads[adId]!;
          const url = landingUrl(sim, ad);
          if (!siteMatches(site, url)) continue;
          const countries = (sim.store.state.adsets[ad.adset_id]?.targeting.geo_locations as { countries?: string[] } | undefined)?.countries ?? ['US'];
          for (const cell of cells) {
            const end = cell.slot + HOUR_MS;
            if (end <= from || end > to || cell.purchases === 0) continue;
            const prices = sim.delivery.orderPrices(adId, cell.slot, cell.purchases, account.currency);
            const next = rng(sim.seed, 'order-meta', adId, cell.slot);
            prices.forEach((price, i) => {
              const isNew = next() < 0.6;
              orders.push({
                event: 'order.paid',
                order_no: `SIM-${adId}-${Math.floor(cell.slot / 1000)}-${i + 1}`,
                site_id: site.id,
                amount: minorToMajorString(price, account.currency),
                currency: account.currency,
                paid_at: new Date(cell.slot + Math.floor(((i + next()) / prices.length) * HOUR_MS)).toISOString(),
                app_user_id: isNew ? `u${adId}${Math.floor(cell.slot / 1000)}${i}` : `u${adId}r${Math.floor(next() * 50)}`,
                is_new_payer: isNew,
                country: countries[Math.floor(next() * countries.length)] ?? 'US',
                landing: { url: url ?? null, campaign_id: ad.campaign_id, adset_id: ad.adset_id, ad_id: ad.id },
              });
            });
          }
        }
      }
    }
  }
  return orders.sort((a, b) => a.paid_at.localeCompare(b.paid_at));
}

/** Sends the orders of finished hours to every site; a failed send is retried next pass. */
export class OrderDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<{ sent: number; failed: number }> | undefined;

  constructor(private readonly sim: Sim) {}

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass over all sites (concurrent callers share it). */
  flush(): Promise<{ sent: number; failed: number }> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    const now = this.sim.clock.now();
    for (const site of Object.values(this.sim.store.state.sites)) {
      const to = Math.min(now, site.dispatched_until + MAX_HOURS_PER_PASS * HOUR_MS);
      if (to <= site.dispatched_until) continue;
      const orders = ordersFor(this.sim, site, site.dispatched_until, to);
      let ok = true;
      for (const order of orders) {
        if (await this.post(site, order)) sent++;
        else {
          failed++;
          ok = false;
          break;
        }
      }
      // Resend the whole window next time if anything failed: receivers dedupe by order_no.
      if (ok && this.sim.store.state.sites[site.id]) {
        site.dispatched_until = to;
        this.sim.store.changed();
      }
    }
    return { sent, failed };
  }

  private async post(site: SiteRecord, order: OrderPayload): Promise<boolean> {
    const body = JSON.stringify(order);
    try {
      const res = await fetch(assertLoopbackUrl(site.webhook_url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sim-signature': sign(site.secret, body), 'x-sim-event': order.event },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await res.arrayBuffer();
      return res.status >= 200 && res.status < 300;
    } catch (err) {
      this.sim.log.warn({ err: (err as Error).message, site: site.id }, 'meta-sim: order webhook failed');
      return false;
    }
  }
}
