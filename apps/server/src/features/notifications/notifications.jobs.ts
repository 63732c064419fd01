import { both } from '@ads/contracts';
import { defineJob, type JobContext } from '../../jobs/types.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { createNotificationService } from './notifications.service.ts';

// Notification jobs (issue 10): delivery of what is due (retries with a growing delay, within each
// channel's rate limit), and the company's system alerts raised from the state of tokens, ad
// accounts and syncs.

export const notificationsOf = (ctx: JobContext<unknown>) =>
  createNotificationService({ db: ctx.db, clock: ctx.clock, secrets: secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log), config: ctx.config, log: ctx.log });

export const deliverNotificationsJob = defineJob({
  name: 'deliver-notifications',
  title: { zh: '发送通知', en: 'Deliver notifications' },
  description: {
    zh: '每分钟发送到期的通知（飞书、钉钉、企业微信、Slack、邮件），按渠道限速，失败按递增间隔重试，最多 5 次。',
    en: 'Every minute sends the notifications that are due (Feishu, DingTalk, WeCom, Slack, e-mail) within each channel’s rate limit; failures are retried with a growing delay, 5 attempts in all.',
  },
  defaultSchedule: '* * * * *',
  system: true,
  retryLimit: 1,
  async run(ctx) {
    const counts = await notificationsOf(ctx).deliverDue({ signal: ctx.signal });
    if (!counts.sent && !counts.failed && !counts.waiting) return { status: 'skipped', summary: counts };
    return { status: 'success', summary: counts, message: both('JOB_NOTIFY_DONE', counts) };
  },
});

export const systemAlertsJob = defineJob({
  name: 'check-system-alerts',
  title: { zh: '检查系统告警', en: 'Check system alerts' },
  description: {
    zh: '每 15 分钟检查令牌即将过期或失效、广告账户被停用、托管账户同步失败，发送到接收系统告警的渠道（同一问题每天一次）。',
    en: 'Every 15 minutes looks for tokens expiring within 7 days or dead, disabled ad accounts and hosted accounts failing to sync, and tells the system-alert channels (once a day per problem).',
  },
  defaultSchedule: '*/15 * * * *',
  system: true,
  async run(ctx) {
    const service = notificationsOf(ctx);
    const { raised } = await service.raiseSystemAlerts();
    const delivered = raised ? await service.deliverDue({ signal: ctx.signal }) : null;
    return { status: raised ? 'success' : 'skipped', summary: { raised, delivered }, message: both('JOB_ALERTS_DONE', { count: raised }) };
  },
});
