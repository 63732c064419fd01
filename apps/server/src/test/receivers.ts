import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// Loopback receivers for notification tests: an HTTP server standing in for the chat platforms'
// incoming webhooks, and an SMTP server standing in for a mail server. Each keeps what it got.

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** What the next requests get (status and body text); default 200 with the platform's "ok". */
  answer: (req: ReceivedRequest) => { status: number; body: string };
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    requests,
    answer: () => ({ status: 200, body: JSON.stringify({ code: 0, msg: 'success', errcode: 0, errmsg: 'ok' }) }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const got: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(got);
      const a = receiver.answer(got);
      res.writeHead(a.status, { 'content-type': a.body.startsWith('{') ? 'application/json' : 'text/plain' }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  user: string | null;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** An SMTP server on loopback without TLS; with `auth`, it requires that user and password. */
export async function startSmtpReceiver(auth?: { user: string; pass: string }): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !auth,
    logger: false,
    onAuth(a, _session, cb) {
      if (auth && a.username === auth.user && a.password === auth.pass) return cb(null, { user: a.username });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: (session.user as string | undefined) ?? null,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
