import http from 'node:http';
import https from 'node:https';
import type { Sim } from '../graph/context.ts';
import { hash32 } from '../random.ts';
import type { SiteRecord } from '../store/state.ts';
import { formatIsoOffset, HOUR_MS } from '../time.ts';
import { HORIZON_MS } from './cohort.ts';
import { MinHeap } from './heap.ts';
import { buyerEvents, eventKey, expandBuyers, siteModel, toWebhookEvent, type PlannedEvent, type WebhookEvent } from './schedule.ts';
import { signatureHeader } from './signature.ts';
import { assertLoopbackUrl } from './sites.ts';

// Sends each site's events to its webhook as API.md ("Orders") says: `POST <webhook_url>`
// with one event object or `{ "events": [...] }` (up to the site's batch size), signed with
// `X-Signature: t=…,v1=…` (t from the sim clock). Events become due on the sim clock; they wait
// in an outbox until a 2xx answer. Resends follow a real-time backoff and are bounded:
//
// - no answer, a redirect, 5xx, 401, 404, 408 or 429: the whole request failed; every event in
//   it is resent after base × 2^(attempt−1) (at most 5 minutes), and dropped after
//   `webhook_max_attempts` attempts;
// - 409 or another 4xx (400, 413, 422, …) answers for the request, and one bad event would
//   block the rest: a batch is split in halves, retried at once, down to the bad event; a lone
//   event answered 409 is resent like a failed request (the paid event it needs may still be
//   on its way), any other 4xx is dropped after BAD_EVENT_ATTEMPTS attempts.
//
// Dropped events are counted in the site's stats and marked in its ledger. Events are
// generated lazily hour by hour (schedule.ts), so a month of back-dated history goes out over
// a few passes, MAX_HOURS_PER_PASS at a time, and never more than OUTBOX_CAP wait at once.

const MAX_HOURS_PER_PASS = 72;
const OUTBOX_CAP = 20_000;
const MAX_REQUESTS_PER_PASS = 500;
const BAD_EVENT_ATTEMPTS = 3;
const MAX_BACKOFF_MS = 5 * 60_000;
const DELIVERY_LOG = 200;
const LEDGER_CAP = 500_000;
const STALE_T_SECONDS = 600;
const QUARTER_HOUR_MS = 15 * 60_000;

export type DeliveryStatus = 'pending' | 'delivered' | 'dropped';
export type SiteFault = 'bad_signature' | 'stale_timestamp' | 'duplicate';
export const SITE_FAULTS: readonly SiteFault[] = ['bad_signature', 'stale_timestamp', 'duplicate'];

interface OutboxEntry {
  key: string;
  due: number;
  event: WebhookEvent;
  attempts: number;
  /** Real time (ms) before which it is not resent. */
  nextAt: number;
  settled?: boolean;
}

/** One HTTP request to a site's webhook, as `GET /__sim/sites/:id/deliveries` shows it. */
export interface DeliveryRecord {
  id: number;
  /** Sim time of the request. */
  at: string;
  /** The `t` it was signed with. */
  t: number;
  shape: 'object' | 'batch';
  events: number;
  /** The first events of the request (`paid:<order_no>`, `refunded:<order_no>`). */
  keys: string[];
  bytes: number;
  status: number | null;
  error?: string;
  response?: string;
  outcome: 'delivered' | 'retry' | 'split' | 'dropped' | 'rejected';
  /** Highest attempt number among its events (1 = first try). */
  attempt: number;
  fault?: SiteFault;
  duration_ms: number;
}

/** Generation state of a site: rebuilt from `dispatched_until` whenever history or settings change. */
interface Runtime {
  heap: MinHeap<PlannedEvent>;
  /** Ad-hours ending at or before this have been turned into events. */
  expandedTo: number;
  /** Events due at or before this are in the outbox or settled. */
  queuedTo: number;
  outbox: OutboxEntry[];
}

/** What the dispatcher keeps for a site across runtime rebuilds (memory only). */
interface Channel {
  runtime?: Runtime;
  ledger: Map<string, DeliveryStatus>;
  deliveries: DeliveryRecord[];
  faults: Record<SiteFault, number>;
  nextDeliveryId: number;
}

export interface FlushResult {
  /** Events delivered (2xx). */
  sent: number;
  /** Event attempts that failed (they are resent later, or dropped). */
  failed: number;
  dropped: number;
  requests: number;
  /** Events waiting in the outboxes. */
  pending: number;
}

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 4 }), https: new https.Agent({ keepAlive: true, maxSockets: 4 }) };

/**
 * One POST with node:http (exact bytes, no redirects followed, a hard timeout); fetch adds
 * tens of milliseconds per request on loopback, which a month of back-dated orders feels.
 */
function postRaw(url: URL, body: Buffer, signature: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, 'x-signature': signature, 'user-agent': 'meta-sim-site/1' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          // Only the start of the answer is kept (the delivery log shows 500 characters).
          if (size < 4096) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

const earlier = (a: PlannedEvent, b: PlannedEvent) => a.due < b.due || (a.due === b.due && (a.order.order_no < b.order.order_no || (a.order.order_no === b.order.order_no && a.kind < b.kind)));

type Verdict = 'ok' | 'retry' | 'conflict' | 'bad';

function verdict(status: number | null): Verdict {
  if (status === null) return 'retry';
  if (status >= 200 && status < 300) return 'ok';
  if (status === 409) return 'conflict';
  if (status >= 400 && status < 500 && ![401, 404, 408, 429].includes(status)) return 'bad';
  return 'retry';
}

export class OrderDispatcher {
  private timer: NodeJS.Timeout | undefined;
  /** Passes run one after another: a flush after a clock move never shares an older pass. */
  private tail: Promise<unknown> = Promise.resolve();
  private queuedPasses = 0;
  private stopped = false;
  private readonly channels = new Map<string, Channel>();

  constructor(private readonly sim: Sim) {}

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => {
      // The timer never piles passes up behind a slow receiver.
      if (this.queuedPasses === 0) void this.serial(() => this.pass()).catch((err) => this.sim.log.error({ err }, 'meta-sim: order dispatch failed'));
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for the pass in flight, which stops after its current request. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopped = true;
    await this.tail;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.queuedPasses += 1;
    const run = this.tail.then(fn).finally(() => (this.queuedPasses -= 1));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** History or a site changed: regenerate from `dispatched_until` (events in flight are resent). */
  resetRuntimes(siteId?: string): void {
    for (const [id, channel] of this.channels) if (siteId === undefined || id === siteId) channel.runtime = undefined;
  }

  /** The site is gone (or the whole state was reset). */
  forget(siteId?: string): void {
    if (siteId === undefined) this.channels.clear();
    else this.channels.delete(siteId);
  }

  private channel(siteId: string): Channel {
    let c = this.channels.get(siteId);
    if (!c) {
      c = { ledger: new Map(), deliveries: [], faults: { bad_signature: 0, stale_timestamp: 0, duplicate: 0 }, nextDeliveryId: 1 };
      this.channels.set(siteId, c);
    }
    return c;
  }

  deliveries(siteId: string, limit: number): DeliveryRecord[] {
    return this.channel(siteId).deliveries.slice(-limit).reverse();
  }

  ledgerStatus(siteId: string, key: string): DeliveryStatus | undefined {
    return this.channels.get(siteId)?.ledger.get(key);
  }

  pendingCount(siteId: string): number {
    return this.channels.get(siteId)?.runtime?.outbox.length ?? 0;
  }

  faults(siteId: string): Record<SiteFault, number> {
    return { ...this.channel(siteId).faults };
  }

  addFaults(siteId: string, add: Partial<Record<SiteFault, number>>): Record<SiteFault, number> {
    const f = this.channel(siteId).faults;
    for (const kind of SITE_FAULTS) f[kind] += add[kind] ?? 0;
    return { ...f };
  }

  clearFaults(siteId: string): void {
    const f = this.channel(siteId).faults;
    for (const kind of SITE_FAULTS) f[kind] = 0;
  }

  /**
   * One pass over all sites, after any pass in flight; with `untilIdle`, passes until every
   * site has caught up with the clock and nothing is ready to send (bounded).
   */
  async flush(opts: { untilIdle?: boolean; retryNow?: boolean } = {}): Promise<FlushResult> {
    const total: FlushResult = { sent: 0, failed: 0, dropped: 0, requests: 0, pending: 0 };
    for (let i = 0; i < (opts.untilIdle ? 10_000 : 1); i++) {
      // Only the first pass skips the backoff: later ones would retry a failing site at once.
      const r = await this.serial(() => this.pass(i === 0 && opts.retryNow === true));
      total.sent += r.sent;
      total.failed += r.failed;
      total.dropped += r.dropped;
      total.requests += r.requests;
      total.pending = r.pending;
      if (this.stopped || this.idle()) break;
    }
    return total;
  }

  private idle(): boolean {
    const now = this.sim.clock.now();
    const realNow = Date.now();
    for (const site of Object.values(this.sim.store.state.sites)) {
      const rt = this.channels.get(site.id)?.runtime;
      if (!rt) return false;
      if (rt.queuedTo < now && rt.outbox.length < OUTBOX_CAP) return false;
      if (rt.outbox.some((e) => !e.settled && e.nextAt <= realNow)) return false;
    }
    return true;
  }

  private async pass(retryNow = false): Promise<FlushResult> {
    const result: FlushResult = { sent: 0, failed: 0, dropped: 0, requests: 0, pending: 0 };
    for (const site of Object.values(this.sim.store.state.sites)) {
      if (this.stopped) break;
      await this.passSite(site.id, result, retryNow);
      result.pending += this.pendingCount(site.id);
    }
    return result;
  }

  private runtime(site: SiteRecord, channel: Channel): Runtime {
    channel.runtime ??= {
      heap: new MinHeap(earlier),
      expandedTo: site.dispatched_until - HORIZON_MS,
      queuedTo: site.dispatched_until,
      outbox: [],
    };
    return channel.runtime;
  }

  /** Moves the events due by now (at most MAX_HOURS_PER_PASS more) into the outbox. */
  private queue(site: SiteRecord, channel: Channel, rt: Runtime): void {
    if (rt.outbox.length >= OUTBOX_CAP) return;
    const target = Math.min(this.sim.clock.now(), rt.queuedTo + MAX_HOURS_PER_PASS * HOUR_MS);
    if (target <= rt.queuedTo) return;
    // Ad-hours end on quarter hours (hours of the accounts' local days): a pass that crosses
    // none has no new buyers, only the due events of known ones.
    if (Math.floor(target / QUARTER_HOUR_MS) > Math.floor(rt.expandedTo / QUARTER_HOUR_MS)) {
      const floor = rt.queuedTo;
      expandBuyers(this.sim, siteModel(site), rt.expandedTo, target, (buyer, orders) => {
        for (const e of buyerEvents(buyer, orders)) if (e.due > floor) rt.heap.push(e);
      });
    }
    rt.expandedTo = Math.max(rt.expandedTo, target);
    for (let top = rt.heap.peek(); top && top.due <= target; top = rt.heap.peek()) {
      rt.heap.pop();
      const key = eventKey(top.kind, top.order.order_no);
      rt.outbox.push({ key, due: top.due, event: toWebhookEvent(site, top), attempts: 0, nextAt: 0 });
      this.mark(channel, key, 'pending');
    }
    rt.queuedTo = target;
  }

  private mark(channel: Channel, key: string, status: DeliveryStatus): void {
    channel.ledger.delete(key);
    channel.ledger.set(key, status);
    if (channel.ledger.size > LEDGER_CAP) channel.ledger.delete(channel.ledger.keys().next().value!);
  }

  private async passSite(siteId: string, result: FlushResult, retryNow: boolean): Promise<void> {
    const site = this.sim.store.state.sites[siteId];
    if (!site) return;
    const channel = this.channel(siteId);
    const rt = this.runtime(site, channel);
    this.queue(site, channel, rt);

    const realNow = Date.now();
    const ready = rt.outbox.filter((e) => !e.settled && (retryNow || e.nextAt <= realNow));
    const groups: OutboxEntry[][] = [];
    for (let i = 0; i < ready.length; i += site.batch_size) groups.push(ready.slice(i, i + site.batch_size));
    const settings = this.sim.store.state.settings;
    const maxAttempts = Math.max(1, settings.webhook_max_attempts);
    let statsChanged = false;

    const failOne = (entry: OutboxEntry, limit: number): boolean => {
      entry.attempts += 1;
      result.failed += 1;
      if (entry.attempts >= limit) {
        entry.settled = true;
        this.mark(channel, entry.key, 'dropped');
        result.dropped += 1;
        site.stats.dropped_events += 1;
        return true;
      }
      entry.nextAt = Date.now() + Math.min(MAX_BACKOFF_MS, settings.webhook_retry_base_ms * 2 ** (entry.attempts - 1));
      return false;
    };

    for (let requests = 0; groups.length > 0 && requests < MAX_REQUESTS_PER_PASS && !this.stopped; requests++) {
      const group = groups.shift()!;
      const current = this.sim.store.state.sites[siteId];
      if (!current) return;
      const answer = await this.post(current, channel, group);
      // A reset (settings, back-dating) while the request was out: the rebuilt runtime resends.
      if (channel.runtime !== rt || this.sim.store.state.sites[siteId] !== current) return;
      result.requests += 1;
      statsChanged = true;
      current.stats.requests += 1;
      current.stats.last_request_at = this.sim.clock.now();
      current.stats.last_status = answer.status;
      const v = verdict(answer.status);
      let outcome: DeliveryRecord['outcome'];
      if (v === 'ok') {
        for (const entry of group) {
          entry.settled = true;
          this.mark(channel, entry.key, 'delivered');
        }
        result.sent += group.length;
        current.stats.delivered_events += group.length;
        outcome = 'delivered';
      } else {
        current.stats.failed_requests += 1;
        if ((v === 'bad' || v === 'conflict') && group.length > 1) {
          // Isolate the bad event: the halves go out again at once.
          const half = Math.ceil(group.length / 2);
          groups.unshift(group.slice(0, half), group.slice(half));
          outcome = 'split';
        } else {
          const limit = v === 'bad' ? Math.min(BAD_EVENT_ATTEMPTS, maxAttempts) : maxAttempts;
          let dropped = 0;
          for (const entry of group) if (failOne(entry, limit)) dropped += 1;
          outcome = dropped === group.length ? 'dropped' : v === 'bad' ? 'rejected' : 'retry';
        }
      }
      answer.record.outcome = outcome;
    }

    rt.outbox = rt.outbox.filter((e) => !e.settled);
    const until = rt.outbox.length > 0 ? rt.outbox[0]!.due - 1 : rt.queuedTo;
    if (until > site.dispatched_until || statsChanged) {
      site.dispatched_until = Math.max(site.dispatched_until, until);
      this.sim.store.changed();
    }
  }

  private takeFault(channel: Channel): SiteFault | undefined {
    for (const kind of SITE_FAULTS) {
      if (channel.faults[kind] > 0) {
        channel.faults[kind] -= 1;
        return kind;
      }
    }
    return undefined;
  }

  /** One request (two with the `duplicate` fault); the first answer decides. */
  private async post(site: SiteRecord, channel: Channel, group: OutboxEntry[]): Promise<{ status: number | null; record: DeliveryRecord }> {
    // A lone event goes out bare or wrapped (both are valid, and senders do both).
    const shape: DeliveryRecord['shape'] = group.length === 1 && hash32(group[0]!.key) % 2 === 0 ? 'object' : 'batch';
    const body = Buffer.from(JSON.stringify(shape === 'object' ? group[0]!.event : { events: group.map((e) => e.event) }));
    const fault = this.takeFault(channel);
    const attempt = Math.max(...group.map((e) => e.attempts)) + 1;
    const first = await this.request(site, channel, body, shape, group, attempt, fault === 'duplicate' ? undefined : fault);
    if (fault === 'duplicate') {
      const again = await this.request(site, channel, body, shape, group, attempt, undefined);
      again.record.fault = 'duplicate';
      again.record.outcome = verdict(again.status) === 'ok' ? 'delivered' : 'rejected';
    }
    return first;
  }

  private async request(
    site: SiteRecord,
    channel: Channel,
    body: Buffer,
    shape: DeliveryRecord['shape'],
    group: OutboxEntry[],
    attempt: number,
    fault: SiteFault | undefined,
  ): Promise<{ status: number | null; record: DeliveryRecord }> {
    const t = Math.floor(this.sim.clock.now() / 1000) - (fault === 'stale_timestamp' ? STALE_T_SECONDS : 0);
    let header = signatureHeader(site.secret, t, body);
    // A corrupted signature: the last hex digit changed.
    if (fault === 'bad_signature') header = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    const record: DeliveryRecord = {
      id: channel.nextDeliveryId++,
      at: formatIsoOffset(this.sim.clock.now()),
      t,
      shape,
      events: group.length,
      keys: group.slice(0, 5).map((e) => e.key),
      bytes: body.length,
      status: null,
      outcome: 'retry',
      attempt,
      duration_ms: 0,
    };
    if (fault) record.fault = fault;
    channel.deliveries.push(record);
    if (channel.deliveries.length > DELIVERY_LOG) channel.deliveries.shift();
    const started = Date.now();
    try {
      const answer = await postRaw(assertLoopbackUrl(site.webhook_url), body, header, this.sim.store.state.settings.webhook_timeout_ms);
      record.status = answer.status;
      record.response = answer.text.slice(0, 500);
    } catch (err) {
      record.error = (err as Error).message;
      this.sim.log.warn({ err: record.error, site: site.id }, 'meta-sim: order webhook failed');
    }
    record.duration_ms = Date.now() - started;
    return { status: record.status, record };
  }
}
