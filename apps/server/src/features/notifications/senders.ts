import { createHmac } from 'node:crypto';
import type { ChannelType } from '@ads/contracts';
import nodemailer from 'nodemailer';

// How a message reaches each kind of channel (issue 10 "Notifications"): each platform's incoming
// webhook has its own body and, for Feishu and DingTalk, its own signature; e-mail goes over SMTP.
// A send answers what the platform said, so the delivery record shows it; it throws nothing.

export interface RenderedMessage {
  title: string;
  lines: string[];
  severity: 'info' | 'warning' | 'error';
  lang: 'zh' | 'en';
}

export interface ChannelTarget {
  type: ChannelType;
  webhookUrl: string | null;
  secret: string | null;
  email: { smtp_host: string; smtp_port: number; smtp_secure: boolean; smtp_user: string; from: string; to: string[] } | null;
  smtpPassword: string | null;
}

export interface SendResult {
  ok: boolean;
  httpStatus: number | null;
  /** The platform's answer (trimmed), or what went wrong. */
  response: string | null;
  error: string | null;
}

const TIMEOUT_MS = 10_000;
const MAX_RESPONSE = 500;

/** Feishu custom bot signature: HMAC-SHA256 keyed by "timestamp\nsecret" over an empty message, base64. */
export function feishuSign(timestampSeconds: number, secret: string): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

/** DingTalk robot signature: HMAC-SHA256 keyed by the secret over "timestamp\nsecret" (ms), base64. */
export function dingtalkSign(timestampMs: number, secret: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');
}

const prefix = (m: RenderedMessage) => (m.severity === 'info' ? '' : m.lang === 'zh' ? (m.severity === 'error' ? '【告警】' : '【注意】') : m.severity === 'error' ? '[Alert] ' : '[Warning] ');

/** The request body (and URL) a webhook channel gets for a message. */
export function webhookRequest(target: ChannelTarget, m: RenderedMessage, now: Date): { url: string; body: unknown } {
  const title = `${prefix(m)}${m.title}`;
  const url = target.webhookUrl!;
  switch (target.type) {
    case 'feishu': {
      const body: Record<string, unknown> = {
        msg_type: 'post',
        content: { post: { [m.lang === 'zh' ? 'zh_cn' : 'en_us']: { title, content: m.lines.map((line) => [{ tag: 'text', text: line }]) } } },
      };
      if (target.secret) {
        const ts = Math.floor(now.getTime() / 1000);
        body.timestamp = String(ts);
        body.sign = feishuSign(ts, target.secret);
      }
      return { url, body };
    }
    case 'dingtalk': {
      let signed = url;
      if (target.secret) {
        const ts = now.getTime();
        const u = new URL(url);
        u.searchParams.set('timestamp', String(ts));
        u.searchParams.set('sign', dingtalkSign(ts, target.secret));
        signed = u.toString();
      }
      const text = [`#### ${title}`, '', ...m.lines.map((l) => `- ${l}`)].join('\n');
      return { url: signed, body: { msgtype: 'markdown', markdown: { title, text } } };
    }
    case 'wecom': {
      // WeCom markdown content is limited to 4096 bytes.
      let content = [`**${title}**`, ...m.lines.map((l) => `> ${l}`)].join('\n');
      while (Buffer.byteLength(content) > 4096) content = content.slice(0, -200);
      return { url, body: { msgtype: 'markdown', markdown: { content } } };
    }
    case 'slack': {
      const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return {
        url,
        body: {
          text: title,
          blocks: [
            { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
            ...(m.lines.length ? [{ type: 'section', text: { type: 'mrkdwn', text: m.lines.map((l) => `• ${escape(l)}`).join('\n').slice(0, 3000) } }] : []),
          ],
        },
      };
    }
    case 'email':
      throw new Error('e-mail is not a webhook');
  }
}

/** Whether a platform's answer says the message was taken. */
function accepted(type: ChannelType, status: number, text: string): { ok: boolean; error: string | null } {
  if (status < 200 || status >= 300) return { ok: false, error: `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}` };
  if (type === 'slack') return text.trim() === 'ok' ? { ok: true, error: null } : { ok: false, error: text.slice(0, 200) || 'no answer' };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, error: `not JSON: ${text.slice(0, 200)}` };
  }
  // Feishu answers {code, msg} (older bots {StatusCode, StatusMessage}); DingTalk and WeCom {errcode, errmsg}.
  const code = json.code ?? json.StatusCode ?? json.errcode;
  if (code === 0 || code === '0') return { ok: true, error: null };
  const msg = json.msg ?? json.StatusMessage ?? json.errmsg ?? '';
  return { ok: false, error: `${String(code)} ${String(msg)}`.trim() };
}

export async function sendWebhook(target: ChannelTarget, m: RenderedMessage, now: Date): Promise<SendResult> {
  const { url, body } = webhookRequest(target, m, now);
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    const text = await res.text();
    const verdict = accepted(target.type, res.status, text);
    return { ok: verdict.ok, httpStatus: res.status, response: text.slice(0, MAX_RESPONSE), error: verdict.error };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    return { ok: false, httpStatus: null, response: null, error: e.name === 'TimeoutError' ? `timeout after ${TIMEOUT_MS / 1000} s` : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}` };
  }
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function sendEmail(target: ChannelTarget, m: RenderedMessage): Promise<SendResult> {
  const e = target.email!;
  const transport = nodemailer.createTransport({
    host: e.smtp_host,
    port: e.smtp_port,
    secure: e.smtp_secure,
    ...(e.smtp_user ? { auth: { user: e.smtp_user, pass: target.smtpPassword ?? '' } } : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  const subject = `${prefix(m)}${m.title}`;
  try {
    const info = await transport.sendMail({
      from: e.from,
      to: e.to,
      subject,
      text: [m.title, '', ...m.lines.map((l) => `- ${l}`)].join('\n'),
      html: `<h3>${escapeHtml(subject)}</h3><ul>${m.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
    });
    const rejected = (info.rejected ?? []).map(String);
    if (rejected.length) return { ok: false, httpStatus: null, response: info.response ?? null, error: `rejected: ${rejected.join(', ')}` };
    return { ok: true, httpStatus: null, response: (info.response ?? '').slice(0, MAX_RESPONSE), error: null };
  } catch (err) {
    const x = err as Error & { response?: string; code?: string };
    return { ok: false, httpStatus: null, response: x.response?.slice(0, MAX_RESPONSE) ?? null, error: `${x.code ? `${x.code}: ` : ''}${x.message}`.slice(0, 500) };
  } finally {
    transport.close();
  }
}

export function send(target: ChannelTarget, m: RenderedMessage, now: Date): Promise<SendResult> {
  return target.type === 'email' ? sendEmail(target, m) : sendWebhook(target, m, now);
}
