import { both, IS_ADMIN_MANAGER, textIn, type Bilingual, type Lang, type NotificationChannel, type NotificationDelivery, type NotificationKind, type SaveChannelBody, type listChannelsBodySchema, type listDeliveriesBodySchema } from '@ads/contracts';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { seesEverything, visibleUserIds } from '../../lib/scope.ts';
import { dayIn } from '../../lib/tz.ts';
import { writeAudit } from '../audit/audit.service.ts';
import {
  deferNotification,
  disabledAccounts,
  dueNotifications,
  failingSyncs,
  findChannel,
  findNotification,
  listChannels,
  listDeliveries,
  queueNotification,
  recordAttempt,
  sentSince,
  targetChannels,
  troubledTokens,
  type ChannelListRow,
  type ChannelRow,
  type DeliveryListRow,
  type NotificationRow,
} from './notifications.repository.ts';
import { send, type ChannelTarget, type RenderedMessage, type SendResult } from './senders.ts';

// Notifications (issue 10): channels (Feishu, DingTalk, WeCom, Slack incoming webhooks, e-mail),
// chosen per rule and for system alerts. A message is queued once per channel and key (a repeat
// only counts as a duplicate), delivered by a job within each channel's rate limit, retried with
// a growing delay, and its outcome kept with the platform's answer. Secrets are stored encrypted.

/** A message in both languages; each channel renders it in its own language and format. */
export interface NotificationMessage {
  title: Bilingual;
  lines: Bilingual[];
  severity: 'info' | 'warning' | 'error';
}

export interface NotifyInput {
  kind: NotificationKind;
  channelIds: readonly number[];
  /** Also every channel that takes the company's system alerts. */
  systemAlerts?: boolean;
  ruleId?: number | null;
  /** Same key, same channel: sent once. */
  dedupeKey?: string | null;
  message: NotificationMessage;
}

/** Attempts before a message is given up (the first one included). */
export const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 30_000;

export interface NotificationDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  config: Pick<Config, 'notify' | 'reportTimezone'>;
  log?: { warn(obj: object, msg?: string): void };
}

type ListChannelsBody = z.infer<typeof listChannelsBodySchema>;
type ListDeliveriesBody = z.infer<typeof listDeliveriesBodySchema>;

/** A webhook URL with its key hidden: scheme, host and the start of the path. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.length > 16 ? `${u.pathname.slice(0, 16)}…` : u.pathname;
    return `${u.protocol}//${u.host}${path}`;
  } catch {
    return '…';
  }
}

export function createNotificationService({ db, clock, secrets, config, log }: NotificationDeps) {
  const ownerScope = async (ctx: RequestContext) => (seesEverything(ctx.actor) ? null : ((await visibleUserIds(db, ctx.actor)) ?? []));

  async function loadVisible(ctx: RequestContext, id: number): Promise<ChannelRow> {
    const row = await findChannel(db, id);
    const scope = await ownerScope(ctx);
    if (!row || (scope && !scope.includes(row.owner_user_id))) throw new AppError('CHANNEL_NOT_FOUND');
    return row;
  }

  function assertHost(url: string) {
    const allowed = config.notify.webhookHosts;
    if (allowed === '*') return;
    const host = new URL(url).hostname.toLowerCase();
    if (!allowed.includes(host)) throw new AppError('CHANNEL_HOST_NOT_ALLOWED', { host, allowed: allowed.join(', ') }, 'webhook_url');
  }

  async function targetOf(row: ChannelRow): Promise<ChannelTarget> {
    return {
      type: row.type,
      webhookUrl: row.webhook_url_enc ? await secrets.decrypt(row.webhook_url_enc) : null,
      secret: row.secret_enc ? await secrets.decrypt(row.secret_enc) : null,
      email: (row.email as ChannelTarget['email']) ?? null,
      smtpPassword: row.smtp_password_enc ? await secrets.decrypt(row.smtp_password_enc) : null,
    };
  }

  const rendered = (n: Pick<NotificationRow, 'body'>, lang: Lang): RenderedMessage => {
    const m = n.body as NotificationMessage;
    return { title: textIn(m.title, lang), lines: m.lines.map((l) => textIn(l, lang)), severity: m.severity, lang };
  };

  /** One attempt at a queued message; records the outcome (sent, retry later, or failed for good). */
  async function attempt(n: NotificationRow, channel: ChannelRow | undefined, finalAttempt = false): Promise<SendResult> {
    const now = clock.now();
    let result: SendResult;
    if (!channel) result = { ok: false, httpStatus: null, response: null, error: 'channel deleted' };
    else if (!channel.enabled && n.kind !== 'test') result = { ok: false, httpStatus: null, response: null, error: both('CHANNEL_DISABLED').en };
    else {
      try {
        result = await send(await targetOf(channel), rendered(n, channel.lang), now);
      } catch (err) {
        result = { ok: false, httpStatus: null, response: null, error: err instanceof Error ? err.message : String(err) };
      }
    }
    const attempts = n.attempts + 1;
    const giveUp = !result.ok && (finalAttempt || attempts >= MAX_ATTEMPTS || !channel);
    await recordAttempt(db, n.id, {
      status: result.ok ? 'sent' : giveUp ? 'failed' : 'pending',
      attempts,
      next_attempt_at: result.ok || giveUp ? null : new Date(clock.now().getTime() + RETRY_BASE_MS * 2 ** (attempts - 1)),
      http_status: result.httpStatus,
      error: result.error?.slice(0, 1000) ?? null,
      response: result.response,
      sent_at: result.ok ? clock.now() : null,
    });
    if (giveUp) log?.warn({ notification: n.id, channel: n.channel_id, error: result.error }, 'notification failed for good');
    return result;
  }

  function deliveryView(r: DeliveryListRow | (NotificationRow & { channel_name: string; channel_type: ChannelRow['type'] }), lang: Lang): NotificationDelivery {
    return {
      id: Number(r.id),
      channel: { id: r.channel_id, name: r.channel_name, type: r.channel_type },
      kind: r.kind as NotificationKind,
      title: lang === 'zh' ? r.title : r.title_en,
      status: r.status,
      attempts: r.attempts,
      next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
      http_status: r.http_status,
      error: r.error,
      response: r.response,
      rule_id: r.rule_id,
      duplicates: r.duplicates,
      created_at: r.created_at.toISOString(),
      sent_at: r.sent_at?.toISOString() ?? null,
    };
  }

  function channelView(r: ChannelListRow | (ChannelRow & { owner_name: string; last_delivery: unknown }), rules: number): NotificationChannel {
    const email = r.email as (ChannelTarget['email'] & object) | null;
    const last = r.last_delivery as { status: 'pending' | 'sent' | 'failed'; at: string; error: string | null } | null;
    return {
      id: r.id,
      name: r.name,
      type: r.type,
      enabled: r.enabled,
      system_alerts: r.system_alerts,
      lang: r.lang,
      rate_limit_per_minute: r.rate_limit_per_minute,
      owner: { id: r.owner_user_id, name: r.owner_name },
      webhook_url_masked: null,
      has_secret: r.secret_enc !== null,
      email: email ? { ...email, has_password: r.smtp_password_enc !== null } : null,
      last_delivery: last ? { status: last.status, at: new Date(last.at).toISOString(), error: last.error } : null,
      rules,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  }

  async function withMaskedUrl(view: NotificationChannel, row: Pick<ChannelRow, 'webhook_url_enc'>): Promise<NotificationChannel> {
    if (!row.webhook_url_enc) return view;
    try {
      return { ...view, webhook_url_masked: maskUrl(await secrets.decrypt(row.webhook_url_enc)) };
    } catch {
      return view;
    }
  }

  const service = {
    /**
     * Queues a message for the listed channels (and the system-alert channels when asked);
     * answers the ids queued (a duplicate key queues nothing). Delivery is the job's.
     */
    async send(input: NotifyInput): Promise<number[]> {
      const channels = await targetChannels(db, input.channelIds, input.systemAlerts ?? false);
      const now = clock.now();
      const ids: number[] = [];
      for (const c of channels) {
        const id = await queueNotification(db, {
          channel_id: c.id,
          kind: input.kind,
          dedupe_key: input.dedupeKey ?? null,
          rule_id: input.ruleId ?? null,
          title: input.message.title.zh.slice(0, 500),
          title_en: input.message.title.en.slice(0, 500),
          body: JSON.stringify(input.message),
          created_at: now,
          next_attempt_at: now,
        });
        if (id !== null) ids.push(id);
      }
      return ids;
    },

    /**
     * Sends what is due, channel by channel, within each channel's messages per minute (a message
     * over the limit waits for the window to move, without counting an attempt).
     */
    async deliverDue(opts: { signal?: AbortSignal; limit?: number } = {}) {
      const now = clock.now();
      const due = await dueNotifications(db, now, opts.limit ?? 200);
      const counts = { sent: 0, failed: 0, waiting: 0 };
      const channels = new Map<number, ChannelRow | undefined>();
      const windows = new Map<number, Date[]>();
      for (const n of due) {
        opts.signal?.throwIfAborted();
        if (!channels.has(n.channel_id)) channels.set(n.channel_id, await findChannel(db, n.channel_id));
        const channel = channels.get(n.channel_id);
        if (channel) {
          const since = new Date(clock.now().getTime() - 60_000);
          const sent = (windows.get(channel.id) ?? (await sentSince(db, channel.id, since))).filter((d) => d > since);
          windows.set(channel.id, sent);
          if (sent.length >= channel.rate_limit_per_minute) {
            await deferNotification(db, n.id, new Date(sent[0]!.getTime() + 60_000));
            counts.waiting++;
            continue;
          }
        }
        const r = await attempt(n, channel);
        if (r.ok) {
          counts.sent++;
          windows.get(n.channel_id)?.push(clock.now());
        } else if (n.attempts + 1 >= MAX_ATTEMPTS || !channel) counts.failed++;
        else counts.waiting++;
      }
      return counts;
    },

    /** Company alerts raised now (tokens, disabled accounts, failing syncs), once a day per set of items. */
    async raiseSystemAlerts() {
      const day = dayIn(clock.now().getTime(), config.reportTimezone);
      let raised = 0;
      const alert = async (kind: NotificationKind, items: { id: number; text: Bilingual }[], title: (n: number) => Bilingual, severity: NotificationMessage['severity']) => {
        if (!items.length) return;
        const key = `${kind}:${day}:${items.map((i) => i.id).join(',')}`.slice(0, 400);
        const ids = await service.send({ kind, channelIds: [], systemAlerts: true, dedupeKey: key, message: { severity, title: title(items.length), lines: items.slice(0, 30).map((i) => i.text) } });
        if (ids.length) raised++;
      };
      const tokens = await troubledTokens(db);
      const at = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '-');
      await alert(
        'token_expiring',
        tokens.filter((t) => t.status === 'expiring').map((t) => ({ id: t.id, text: { zh: `个号「${t.name}」令牌将于 ${at(t.token_expires_at)} 过期，请重新授权`, en: `Personal account "${t.name}": token expires ${at(t.token_expires_at)}; connect it again` } })),
        (n) => ({ zh: `${n} 个个号令牌将在 7 天内过期`, en: `${n} personal account token${n === 1 ? '' : 's'} expire within 7 days` }),
        'warning',
      );
      await alert(
        'token_dead',
        tokens.filter((t) => t.status === 'invalid').map((t) => ({ id: t.id, text: { zh: `个号「${t.name}」令牌已失效，相关广告账户停止同步`, en: `Personal account "${t.name}": the token stopped working; its ad accounts no longer sync` } })),
        (n) => ({ zh: `${n} 个个号令牌已失效`, en: `${n} personal account token${n === 1 ? '' : 's'} stopped working` }),
        'error',
      );
      await alert(
        'account_disabled',
        (await disabledAccounts(db)).map((a) => ({ id: a.id, text: { zh: `广告账户「${a.name}」(${a.platform_id}) 状态 ${a.account_status}（已停用或关闭）`, en: `Ad account "${a.name}" (${a.platform_id}) has status ${a.account_status} (disabled or closed)` } })),
        (n) => ({ zh: `${n} 个广告账户已被停用`, en: `${n} ad account${n === 1 ? ' is' : 's are'} disabled` }),
        'error',
      );
      await alert(
        'sync_failing',
        (await failingSyncs(db)).map((a) => ({ id: a.id, text: { zh: `托管账户「${a.name}」(${a.platform_id}) 同步失败：${a.last_error ?? a.status}`, en: `Hosted account "${a.name}" (${a.platform_id}) fails to sync: ${a.last_error_en ?? a.last_error ?? a.status}` } })),
        (n) => ({ zh: `${n} 个托管账户同步失败`, en: `${n} hosted account${n === 1 ? '' : 's'} fail to sync` }),
        'error',
      );
      return { raised };
    },

    async listChannels(ctx: RequestContext, body: ListChannelsBody, rulesPerChannel: Map<number, number>) {
      const { rows, total } = await listChannels(db, { ownerIds: await ownerScope(ctx), type: body.type, keyword: body.keyword }, body.page_size, (body.page - 1) * body.page_size);
      return { list: await Promise.all(rows.map((r) => withMaskedUrl(channelView(r, rulesPerChannel.get(r.id) ?? 0), r))), total };
    },

    /** Channels the caller may pick (the rule editor). */
    async pickable(ctx: RequestContext) {
      const { rows } = await listChannels(db, { ownerIds: await ownerScope(ctx) }, 500, 0);
      return rows.map((r) => ({ id: r.id, name: r.name, type: r.type }));
    },

    /** Which of `ids` the caller may send to; refuses the rest. */
    async assertPickable(ctx: RequestContext, ids: readonly number[]) {
      if (!ids.length) return;
      const scope = await ownerScope(ctx);
      for (const id of ids) {
        const row = await findChannel(db, id);
        if (!row || (scope && !scope.includes(row.owner_user_id))) throw new AppError('RULE_CHANNEL_NOT_FOUND', {}, 'notify.channel_ids');
      }
    },

    async saveChannel(ctx: RequestContext, body: SaveChannelBody, rules: number): Promise<NotificationChannel> {
      const existing = body.id ? await loadVisible(ctx, body.id) : undefined;
      if (existing && existing.type !== body.type) throw new AppError('VALIDATION', { detail: 'type' }, 'type');
      if (body.system_alerts && ctx.actor.is_admin !== IS_ADMIN_MANAGER && !(existing?.system_alerts ?? false)) throw new AppError('CHANNEL_SYSTEM_ALERTS_MANAGER', {}, 'system_alerts');
      if (body.webhook_url) assertHost(body.webhook_url);
      const now = clock.now();
      const values = {
        name: body.name,
        type: body.type,
        enabled: body.enabled,
        system_alerts: body.system_alerts,
        lang: body.lang,
        rate_limit_per_minute: body.rate_limit_per_minute,
        ...(body.webhook_url !== undefined && body.type !== 'email' && { webhook_url_enc: await secrets.encrypt(body.webhook_url) }),
        ...(body.secret !== undefined && { secret_enc: body.secret === '' ? null : await secrets.encrypt(body.secret) }),
        ...(body.type === 'email' && body.email && { email: JSON.stringify({ ...body.email, smtp_password: undefined }) }),
        ...(body.type === 'email' && body.email?.smtp_password !== undefined && { smtp_password_enc: body.email.smtp_password === '' ? null : await secrets.encrypt(body.email.smtp_password) }),
        updated_at: now,
      };
      let id: number;
      if (existing) {
        await db.updateTable('notification_channels').set(values).where('id', '=', existing.id).execute();
        id = existing.id;
        await writeAudit(db, ctx, { action: 'notification_channel.edit', entity_type: 'notification_channel', entity_id: id, before: { name: existing.name, enabled: existing.enabled, system_alerts: existing.system_alerts }, after: { name: body.name, enabled: body.enabled, system_alerts: body.system_alerts } });
      } else {
        const row = await db.insertInto('notification_channels').values({ ...values, owner_user_id: ctx.actor.id, created_at: now }).returning('id').executeTakeFirstOrThrow();
        id = row.id;
        await writeAudit(db, ctx, { action: 'notification_channel.create', entity_type: 'notification_channel', entity_id: id, before: null, after: { name: body.name, type: body.type } });
      }
      const row = (await findChannel(db, id))!;
      const owner = await db.selectFrom('users').select('name').where('id', '=', row.owner_user_id).executeTakeFirstOrThrow();
      return withMaskedUrl(channelView({ ...row, owner_name: owner.name, last_delivery: null }, rules), row);
    },

    async deleteChannel(ctx: RequestContext, id: number) {
      const row = await loadVisible(ctx, id);
      await db.updateTable('notification_channels').set({ deleted_at: clock.now(), enabled: false }).where('id', '=', row.id).execute();
      await writeAudit(db, ctx, { action: 'notification_channel.delete', entity_type: 'notification_channel', entity_id: id, before: { name: row.name }, after: null });
      return { deleted: 1 };
    },

    /** A test message, sent now (one attempt), answered as its delivery. */
    async test(ctx: RequestContext, id: number): Promise<NotificationDelivery> {
      const channel = await loadVisible(ctx, id);
      const now = clock.now();
      const message: NotificationMessage = {
        severity: 'info',
        title: { zh: `测试消息：渠道「${channel.name}」`, en: `Test message: channel "${channel.name}"` },
        lines: [
          { zh: `由 ${ctx.actor.name} 于 ${now.toISOString().slice(0, 19).replace('T', ' ')} UTC 从广告投放系统发送`, en: `Sent by ${ctx.actor.name} from the ad delivery system at ${now.toISOString().slice(0, 19).replace('T', ' ')} UTC` },
          { zh: '收到这条消息说明托管规则的通知可以送达这里。', en: 'If you read this, hosting rule notifications reach this channel.' },
        ],
      };
      const row = await db
        .insertInto('notifications')
        .values({ channel_id: channel.id, kind: 'test', dedupe_key: null, rule_id: null, title: message.title.zh, title_en: message.title.en, body: JSON.stringify(message), created_at: now, next_attempt_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await attempt(await findNotification(db, row.id), channel, true);
      const n = await findNotification(db, row.id);
      return deliveryView({ ...n, channel_name: channel.name, channel_type: channel.type }, ctx.lang);
    },

    async listDeliveries(ctx: RequestContext, body: ListDeliveriesBody) {
      const { rows, total } = await listDeliveries(db, { ownerIds: await ownerScope(ctx), channelId: body.channel_id, status: body.status, kind: body.kind, ruleId: body.rule_id }, body.page_size, (body.page - 1) * body.page_size);
      return { list: rows.map((r) => deliveryView(r, ctx.lang)), total };
    },
  };
  return service;
}

export type NotificationService = ReturnType<typeof createNotificationService>;
