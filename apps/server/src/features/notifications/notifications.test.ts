import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretBoxFor } from '../../lib/crypto.ts';
import { buildTestApp, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { createDepartment, createPersonalAccount, createUser } from '../../test/factories.ts';
import { startSmtpReceiver, startWebhookReceiver, type SmtpReceiver, type WebhookReceiver } from '../../test/receivers.ts';
import { createNotificationService, MAX_ATTEMPTS } from './notifications.service.ts';
import { dingtalkSign, feishuSign } from './senders.ts';

// Notification channels against receivers this test starts on loopback: each platform's message
// format and signature, e-mail over SMTP, "send test" with its delivery result, secrets never
// answered, hosts outside the allowed list refused, deduplication, the rate limit per channel,
// retries with a growing delay and a final failure, and system alerts.

const CONFIG = { notify: { webhookHosts: ['127.0.0.1'] } };

let t: TestApp;
let hook: WebhookReceiver;
let smtp: SmtpReceiver;
let manager: string;
let staff: { id: number; token: string };
let other: string;

const api = (path: string, body: unknown, token = staff.token, lang = 'en') => t.call(`/api${path}`, body, { token, lang });
const service = () => createNotificationService({ db: t.db, clock: t.clock, secrets: secretBoxFor(t.db, testConfig().tokenEncryptionKey), config: testConfig(CONFIG) });

async function channel(body: Record<string, unknown>, token = staff.token) {
  const res = await api('/notification-channels/save', body, token);
  expect(res.code, res.message).toBe(0);
  return res.data as { id: number; webhook_url_masked: string | null; has_secret: boolean };
}

beforeAll(async () => {
  hook = await startWebhookReceiver();
  smtp = await startSmtpReceiver({ user: 'robot', pass: 'mail-secret' });
  t = await buildTestApp({ config: CONFIG });
  const m = await createUser(t.db, { is_admin: 1 });
  manager = await t.login(m.account, m.password);
  const d1 = await createDepartment(t.db);
  const d2 = await createDepartment(t.db);
  const s = await createUser(t.db, { department_id: d1.id, paths: ['/operation/account'] });
  staff = { id: s.id, token: await t.login(s.account, s.password) };
  const o = await createUser(t.db, { department_id: d2.id, paths: ['/operation/account'] });
  other = await t.login(o.account, o.password);
});

afterAll(async () => {
  await t?.close();
  await hook?.close();
  await smtp?.close();
});

describe('notification channels', () => {
  it('each webhook gets its platform’s format and signature; "send test" answers the delivery', async () => {
    const feishu = await channel({ name: 'Feishu ops', type: 'feishu', lang: 'zh', webhook_url: `${hook.url}/open-apis/bot/v2/hook/feishu-key-123456789`, secret: 'fs-secret' });
    expect(feishu.has_secret).toBe(true);
    expect(feishu.webhook_url_masked).not.toContain('feishu-key-123456789');
    const res = await api('/notification-channels/test', { id: feishu.id });
    expect(res.code, res.message).toBe(0);
    expect(res.data).toMatchObject({ status: 'sent', attempts: 1, http_status: 200, kind: 'test', channel: { id: feishu.id, type: 'feishu' } });
    const f = hook.requests.at(-1)!;
    expect(f.url).toBe('/open-apis/bot/v2/hook/feishu-key-123456789');
    expect(f.body.msg_type).toBe('post');
    expect(f.body.content.post.zh_cn.title).toContain('测试消息');
    expect(f.body.content.post.zh_cn.content[0][0]).toMatchObject({ tag: 'text' });
    expect(f.body.sign).toBe(feishuSign(Number(f.body.timestamp), 'fs-secret'));
    expect(Number(f.body.timestamp)).toBe(Math.floor(t.clock.now().getTime() / 1000));

    const ding = await channel({ name: 'DingTalk', type: 'dingtalk', lang: 'en', webhook_url: `${hook.url}/robot/send?access_token=dt-token`, secret: 'SEC-ding' });
    await api('/notification-channels/test', { id: ding.id });
    const d = hook.requests.at(-1)!;
    const q = new URL(d.url, hook.url).searchParams;
    expect(q.get('access_token')).toBe('dt-token');
    expect(q.get('sign')).toBe(dingtalkSign(Number(q.get('timestamp')), 'SEC-ding'));
    expect(d.body).toMatchObject({ msgtype: 'markdown', markdown: { title: expect.stringContaining('Test message') } });
    expect(d.body.markdown.text).toMatch(/^#### Test message/);

    const wecom = await channel({ name: 'WeCom', type: 'wecom', webhook_url: `${hook.url}/cgi-bin/webhook/send?key=wc` });
    await api('/notification-channels/test', { id: wecom.id });
    expect(hook.requests.at(-1)!.body).toMatchObject({ msgtype: 'markdown', markdown: { content: expect.stringMatching(/^\*\*测试消息/) } });

    hook.answer = () => ({ status: 200, body: 'ok' });
    const slack = await channel({ name: 'Slack', type: 'slack', lang: 'en', webhook_url: `${hook.url}/services/T000/B000/XXXX` });
    const sent = await api('/notification-channels/test', { id: slack.id });
    expect(sent.data.status).toBe('sent');
    const s = hook.requests.at(-1)!.body;
    expect(s.text).toContain('Test message');
    expect(s.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(s.blocks[1]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    // Slack refuses a payload with a plain-text reason: the delivery says so.
    hook.answer = () => ({ status: 400, body: 'invalid_payload' });
    const refused = await api('/notification-channels/test', { id: slack.id });
    expect(refused.data).toMatchObject({ status: 'failed', http_status: 400, error: expect.stringContaining('invalid_payload') });
    // Feishu answers 200 with an error code when the signature is wrong.
    hook.answer = () => ({ status: 200, body: JSON.stringify({ code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' }) });
    const badSign = await api('/notification-channels/test', { id: feishu.id });
    expect(badSign.data).toMatchObject({ status: 'failed', error: expect.stringContaining('19021') });
    hook.answer = () => ({ status: 200, body: JSON.stringify({ code: 0, msg: 'success', errcode: 0, errmsg: 'ok' }) });

    const list = await api('/notifications/list', { channel_id: slack.id });
    expect(list.data.list.map((n: any) => n.status)).toEqual(['failed', 'sent']);
    const channels = await api('/notification-channels/list', {});
    expect(JSON.stringify(channels.data)).not.toContain('fs-secret');
    expect(JSON.stringify(channels.data)).not.toContain('dt-token');
    expect(channels.data.list.find((c: any) => c.id === slack.id).last_delivery).toMatchObject({ status: 'failed' });
  });

  it('e-mail goes over SMTP with the channel’s login', async () => {
    const mail = await channel({ name: 'Mail', type: 'email', lang: 'en', email: { smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_secure: false, smtp_user: 'robot', smtp_password: 'mail-secret', from: 'ads@example.com', to: ['ops@example.com', 'lead@example.com'] } });
    const res = await api('/notification-channels/test', { id: mail.id });
    expect(res.data, JSON.stringify(res.data)).toMatchObject({ status: 'sent' });
    const got = smtp.mails.at(-1)!;
    expect(got).toMatchObject({ from: 'ads@example.com', to: ['ops@example.com', 'lead@example.com'], user: 'robot' });
    expect(got.raw).toMatch(/Subject: =\?UTF-8\?Q\?Test_message/);
    expect(got.raw.replace(/=\r\n/g, '')).toContain('If you read this, hosting rule notifications reach this channel.');
    const listed = await api('/notification-channels/list', { type: 'email' });
    expect(listed.data.list[0].email).toMatchObject({ smtp_host: '127.0.0.1', has_password: true });
    expect(JSON.stringify(listed.data)).not.toContain('mail-secret');
    // A wrong password: the server's refusal is the delivery's error.
    await channel({ id: mail.id, name: 'Mail', type: 'email', email: { smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_secure: false, smtp_user: 'robot', smtp_password: 'wrong', from: 'ads@example.com', to: ['ops@example.com'] } });
    const bad = await api('/notification-channels/test', { id: mail.id });
    expect(bad.data.status).toBe('failed');
    expect(bad.data.error).toMatch(/EAUTH|Invalid/);
  });

  it('refuses hosts outside the allowed list, system alerts from non-managers, and others’ channels', async () => {
    const evil = await api('/notification-channels/save', { name: 'X', type: 'slack', webhook_url: 'https://169.254.169.254/latest/meta-data' });
    expect(evil.code).not.toBe(0);
    expect(evil.message).toMatch(/not allowed/);
    const alerts = await api('/notification-channels/save', { name: 'X', type: 'slack', system_alerts: true, webhook_url: `${hook.url}/s` });
    expect(alerts.message).toMatch(/Only managers/);
    const mine = await channel({ name: 'Mine', type: 'wecom', webhook_url: `${hook.url}/w` });
    expect((await api('/notification-channels/test', { id: mine.id }, other)).message).toMatch(/outside your scope/);
    expect((await api('/notification-channels/list', {}, other)).data.total).toBe(0);
    expect((await api('/notification-channels/list', {}, manager)).data.total).toBeGreaterThan(0);
  });

  it('a message is queued once per key, sent within the channel’s rate limit, retried, and then reported', async () => {
    const limited = await channel({ name: 'Limited', type: 'wecom', webhook_url: `${hook.url}/limited`, rate_limit_per_minute: 2 });
    const svc = service();
    const message = { severity: 'info' as const, title: { zh: '标题', en: 'Title' }, lines: [{ zh: '一行', en: 'A line' }] };
    const first = await svc.send({ kind: 'rule_fired', channelIds: [limited.id], dedupeKey: 'same', message });
    const again = await svc.send({ kind: 'rule_fired', channelIds: [limited.id], dedupeKey: 'same', message });
    expect(first).toHaveLength(1);
    expect(again).toEqual([]);
    for (let i = 0; i < 4; i++) await svc.send({ kind: 'rule_fired', channelIds: [limited.id], dedupeKey: `k${i}`, message });
    const before = hook.requests.filter((r) => r.url === '/limited').length;
    expect(await svc.deliverDue()).toEqual({ sent: 2, failed: 0, waiting: 3 });
    expect(await svc.deliverDue()).toEqual({ sent: 0, failed: 0, waiting: 0 });
    t.clock.advance(61_000);
    expect(await svc.deliverDue()).toMatchObject({ sent: 2 });
    t.clock.advance(61_000);
    expect(await svc.deliverDue()).toMatchObject({ sent: 1 });
    expect(hook.requests.filter((r) => r.url === '/limited').length - before).toBe(5);
    const listed = await api('/notifications/list', { channel_id: limited.id, page_size: 10 });
    expect(listed.data.list.find((n: any) => n.id === first[0]).duplicates).toBe(1);

    // A platform that keeps failing: retried with a growing delay, then failed for good.
    const down = await channel({ name: 'Down', type: 'feishu', webhook_url: `${hook.url}/down` });
    hook.answer = (r) => (r.url === '/down' ? { status: 500, body: 'upstream error' } : { status: 200, body: JSON.stringify({ code: 0 }) });
    const [id] = await svc.send({ kind: 'rule_failed', channelIds: [down.id], dedupeKey: 'down', message });
    const waits: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await svc.deliverDue();
      const row = await t.db.selectFrom('notifications').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
      expect(row.attempts).toBe(i + 1);
      if (row.next_attempt_at) {
        waits.push(row.next_attempt_at.getTime() - t.clock.now().getTime());
        // Not before its time.
        await svc.deliverDue();
        expect((await t.db.selectFrom('notifications').select('attempts').where('id', '=', id!).executeTakeFirstOrThrow()).attempts).toBe(i + 1);
        t.clock.set(row.next_attempt_at);
      }
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000]);
    const failed = await api('/notifications/list', { channel_id: down.id });
    expect(failed.data.list[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, http_status: 500, error: expect.stringContaining('HTTP 500') });
    hook.answer = () => ({ status: 200, body: JSON.stringify({ code: 0, msg: 'success', errcode: 0, errmsg: 'ok' }) });
  });

  it('system alerts reach the channels that take them, once a day per problem', async () => {
    const alerts = await channel({ name: 'Alerts', type: 'feishu', lang: 'en', system_alerts: true, webhook_url: `${hook.url}/alerts` }, manager);
    const pa = await createPersonalAccount(t.db, { name: 'Token soon', status: 'expiring', token_expires_at: new Date(t.clock.now().getTime() + 3 * 86_400_000) });
    // Connected (a token is stored): only connected accounts are watched.
    await t.db.updateTable('personal_accounts').set({ token_enc: 'sealed' }).where('id', '=', pa.id).execute();
    const svc = service();
    expect(await svc.raiseSystemAlerts()).toEqual({ raised: 1 });
    expect(await svc.raiseSystemAlerts()).toEqual({ raised: 0 });
    await svc.deliverDue();
    const got = hook.requests.filter((r) => r.url === '/alerts');
    expect(got).toHaveLength(1);
    expect(got[0]!.body.content.post.en_us.title).toMatch(/\[Warning\] 1 personal account token expire/);
    expect(got[0]!.body.content.post.en_us.content[0][0].text).toContain('Token soon');
    const listed = await api('/notifications/list', { channel_id: alerts.id }, manager);
    expect(listed.data.list[0]).toMatchObject({ kind: 'token_expiring', status: 'sent', duplicates: 1 });
  });
});
