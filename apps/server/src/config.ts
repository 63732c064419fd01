import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { MATERIAL_MAX_BYTES_DEFAULT } from '@ads/contracts';
import { parseEncryptionKey } from './lib/crypto.ts';

const bool = z
  .string()
  .optional()
  .transform((v) => v === '1' || v?.toLowerCase() === 'true');

/** Unset and empty (`META_APP_ID=` in an env file) both mean "not configured". */
const optionalText = z
  .string()
  .optional()
  .transform((v) => v || undefined);
const optionalUrl = z.string().url().optional().or(z.literal('').transform(() => undefined));

/** A switch that is on unless set to 0/false (unset or empty = on). */
const boolOn = z
  .string()
  .optional()
  .refine((v) => !v || /^(1|0|true|false)$/i.test(v), 'expected 1, 0, true or false')
  .transform((v) => !v || v === '1' || v.toLowerCase() === 'true');

/** proxy-addr's names for address ranges, usable in TRUST_PROXY's list. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IP address, a CIDR (address/prefix) or a range name. */
function isProxyAddress(text: string): boolean {
  if (PROXY_RANGE_NAMES.includes(text)) return true;
  const [addr, prefix, extra] = text.split('/');
  const family = isIP(addr ?? '');
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-For to believe: none (unset, false, 0), a number of hops (1 = the
 * proxy right in front; `true` is read as 1, never as "every hop", which would let a client pick
 * its own address), or the proxies' addresses and CIDRs, comma-separated.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): false | number | string[] => {
    const text = v?.trim().toLowerCase() ?? '';
    if (!text || text === 'false' || text === '0') return false;
    if (text === 'true') return 1;
    if (/^\d+$/.test(text)) return Number(text);
    const list = text.split(',').map((s) => s.trim());
    if (list.every(isProxyAddress)) return list;
    ctx.addIssue({ code: 'custom', message: 'expected false, a number of proxy hops, or proxy addresses / CIDRs separated by commas' });
    return z.NEVER;
  });

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(def);
const GIB = 1024 ** 3;

/** Every environment variable the server reads, with its default (README "Configuration"). */
const envSchema = z.object({
  PORT: int(8080, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_IDLE_DAYS: z.coerce.number().positive().max(365).default(7),
  INIT_ADMIN_PASSWORD: z.string().min(6).optional(),
  INIT_MANAGER_PASSWORD: z.string().min(6).optional(),
  DEMO: bool,
  DEMO_PASSWORD: z.string().min(6).optional(),
  LOGIN_MAX_FAILURES: int(5, 1, 1000),
  LOGIN_ACCOUNT_MAX_FAILURES: int(50, 1, 100000),
  LOGIN_IP_MAX_FAILURES: int(30, 1, 100000),
  LOGIN_LOCK_MINUTES: int(15, 1, 24 * 60),
  LOGIN_SLOWDOWN_MS: int(1000, 0, 10_000),
  TRUST_PROXY: trustProxy,
  JOBS_ENABLED: boolOn,
  JOBS_CONCURRENCY: int(4, 1, 32),
  JOBS_HEARTBEAT_MS: int(5000, 50, 60_000),
  // Empty = the built-in simulator (whoever starts it supplies its URL).
  META_GRAPH_URL: optionalUrl,
  META_API_VERSION: z.string().regex(/^v\d+\.0$/, 'like v25.0').default('v25.0'),
  META_APP_ID: optionalText,
  META_APP_SECRET: optionalText,
  META_DIALOG_URL: optionalUrl,
  META_REQUEST_TIMEOUT_MS: int(30_000, 1000, 600_000),
  META_MAX_CONCURRENCY_PER_ACCOUNT: int(4, 1, 100),
  META_MAX_CONCURRENCY_PER_TOKEN: int(8, 1, 100),
  // Authorization assets (docs/api-assets.md).
  PUBLIC_URL: optionalUrl,
  TOKEN_ENCRYPTION_KEY: optionalText,
  TOKEN_ENCRYPTION_KEY_PREVIOUS: optionalText,
  META_SIM_PORT: int(4010, 0, 65535),
  // Materials (features/materials): upload limit, where files live, the reporting time zone of date filters.
  MATERIAL_MAX_BYTES: int(MATERIAL_MAX_BYTES_DEFAULT, 1),
  // Upload quotas per user, and the free space kept on the disk of DATA_DIR (tus.ts).
  MATERIAL_MAX_OPEN_UPLOADS: int(20, 1, 100_000),
  MATERIAL_MAX_RESERVED_BYTES: int(20 * GIB, 1),
  MATERIAL_MIN_FREE_BYTES: int(2 * GIB, 0),
  // Media tools (features/materials/media.ts): the machine's when set or on PATH, else the bundled ones.
  FFMPEG_PATH: optionalText,
  FFPROBE_PATH: optionalText,
  MEDIA_TOOL_TIMEOUT_SECONDS: int(60, 1, 3600),
  MEDIA_TOOL_CONCURRENCY: int(2, 1, 32),
  PATH: z.string().default(''),
  MATERIAL_STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: optionalText,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: bool,
  // Notification channels (features/notifications): hosts a webhook may point at, comma-separated; '*' = any.
  NOTIFY_WEBHOOK_HOSTS: z.string().default('open.feishu.cn,open.larksuite.com,oapi.dingtalk.com,qyapi.weixin.qq.com,hooks.slack.com'),
  HOURLY_RETENTION_DAYS: z.coerce.number().int().min(3).max(400).default(40),
  REPORT_TIMEZONE: z
    .string()
    .default('Asia/Shanghai')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'an IANA time zone such as Asia/Shanghai or UTC'),
});

/** Where material files are kept (features/materials/storage.ts). */
export type MaterialStorageConfig =
  | { kind: 'local'; dir: string }
  | { kind: 's3'; endpoint: string | undefined; bucket: string; region: string; accessKeyId: string | undefined; secretAccessKey: string | undefined; forcePathStyle: boolean };

/** How ffmpeg and ffprobe run (features/materials/media.ts). */
export interface MediaToolsConfig {
  /** FFMPEG_PATH / FFPROBE_PATH; undefined = the one found on searchPath, else the npm package's. */
  ffmpegPath: string | undefined;
  ffprobePath: string | undefined;
  /** Directories searched for the machine's tools (PATH). */
  searchPath: string;
  /** One tool run on one file longer than this is killed, and the file refused. */
  timeoutMs: number;
  /** Tool runs at once in this process; more wait. */
  concurrency: number;
}

/** Materials: uploads (tus), storage and the push job. */
export interface MaterialsConfig {
  /** Largest accepted upload, bytes. */
  maxBytes: number;
  /** Unfinished uploads one user may have at once. */
  maxOpenUploads: number;
  /** Bytes the unfinished uploads of one user may announce (Upload-Length) in all. */
  maxReservedBytes: number;
  /** Free bytes kept on the disk of the uploads beyond a new upload's length; less refuses it (507). */
  minFreeBytes: number;
  /** ffmpeg / ffprobe: which binaries, their time limit and how many run at once. */
  media: MediaToolsConfig;
  /** tus uploads in progress (DATA_DIR/uploads): local disk, so an upload resumes after a restart. */
  uploadDir: string;
  storage: MaterialStorageConfig;
  /** The push job polls videos the platform is processing this often, for at most pushWaitMs in one run (the check job takes over after). */
  pushPollMs: number;
  pushWaitMs: number;
}

/** The Graph API connection (reference §0, §11, §16); consumed by platform/meta-adapter.ts. */
export interface MetaConfig {
  /** Base URL without the version, e.g. https://graph.facebook.com; undefined = the built-in simulator. */
  graphUrl: string | undefined;
  /** Pinned Graph API version, e.g. v25.0. */
  apiVersion: string;
  appId: string | undefined;
  appSecret: string | undefined;
  /** Full URL of the OAuth login dialog; undefined = derived from the Graph URL. */
  dialogUrl: string | undefined;
  requestTimeoutMs: number;
  maxConcurrencyPerAccount: number;
  maxConcurrencyPerToken: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  webDist: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  sessionIdleMs: number;
  initAdminPassword: string | undefined;
  initManagerPassword: string | undefined;
  demo: boolean;
  demoPassword: string | undefined;
  /** Login throttling: failures per account and address pair, per account from any address, per address. */
  login: { maxFailures: number; accountMaxFailures: number; ipMaxFailures: number; lockMs: number; slowdownMs: number };
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses / CIDRs. */
  trustProxy: false | number | string[];
  /**
   * Background jobs (jobs/runner.ts): whether this process runs them, how many at once, and how
   * often it beats (a process silent for 6 beats is presumed dead and its runs are reclaimed).
   */
  jobs: { enabled: boolean; concurrency: number; heartbeatMs: number };
  meta: MetaConfig;
  /** Where browsers reach this server (OAuth redirect URI, webhook URLs), without a trailing slash. */
  publicUrl: string;
  /** TOKEN_ENCRYPTION_KEY (32 bytes); undefined = a key generated into app_settings (lib/crypto.ts). */
  tokenEncryptionKey: Buffer | undefined;
  /** TOKEN_ENCRYPTION_KEY_PREVIOUS: the key being replaced; secrets it sealed are re-encrypted at start. */
  tokenEncryptionKeyPrevious: Buffer | undefined;
  /** Port of the built-in simulator started when META_GRAPH_URL is empty. */
  metaSimPort: number;
  materials: MaterialsConfig;
  /** IANA time zone in which dates of filters and reports are read (PRODUCT.md "Metrics"). */
  reportTimezone: string;
  /** HOURLY_RETENTION_DAYS: how long hourly ad insights are kept (charts, rules' hour windows, re-bucketing). */
  hourlyRetentionDays: number;
  /** Notification channels: the hosts webhook URLs may point at ('*': any), so a channel cannot make the server call internal addresses. */
  notify: { webhookHosts: string[] | '*' };
}

/** The only place that reads process.env. Throws a readable message on bad values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const keyOf = (name: 'TOKEN_ENCRYPTION_KEY' | 'TOKEN_ENCRYPTION_KEY_PREVIOUS') => {
    try {
      const text = e[name];
      return text ? parseEncryptionKey(text) : undefined;
    } catch (err) {
      throw new Error(`Invalid configuration:\n  ${name}: ${(err as Error).message}`, { cause: err });
    }
  };
  const tokenEncryptionKey = keyOf('TOKEN_ENCRYPTION_KEY');
  const tokenEncryptionKeyPrevious = keyOf('TOKEN_ENCRYPTION_KEY_PREVIOUS');
  if (tokenEncryptionKeyPrevious && !tokenEncryptionKey) throw new Error('Invalid configuration:\n  TOKEN_ENCRYPTION_KEY_PREVIOUS: only with TOKEN_ENCRYPTION_KEY (the key that replaces it)');
  if (e.MATERIAL_STORAGE === 's3' && !e.S3_BUCKET) throw new Error('Invalid configuration:\n  S3_BUCKET: required when MATERIAL_STORAGE=s3');
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    logLevel: e.LOG_LEVEL,
    sessionIdleMs: e.SESSION_IDLE_DAYS * 24 * 3600 * 1000,
    initAdminPassword: e.INIT_ADMIN_PASSWORD,
    initManagerPassword: e.INIT_MANAGER_PASSWORD,
    demo: e.DEMO,
    demoPassword: e.DEMO_PASSWORD,
    login: {
      maxFailures: e.LOGIN_MAX_FAILURES,
      accountMaxFailures: e.LOGIN_ACCOUNT_MAX_FAILURES,
      ipMaxFailures: e.LOGIN_IP_MAX_FAILURES,
      lockMs: e.LOGIN_LOCK_MINUTES * 60_000,
      slowdownMs: e.LOGIN_SLOWDOWN_MS,
    },
    trustProxy: e.TRUST_PROXY,
    jobs: { enabled: e.JOBS_ENABLED, concurrency: e.JOBS_CONCURRENCY, heartbeatMs: e.JOBS_HEARTBEAT_MS },
    meta: {
      graphUrl: e.META_GRAPH_URL?.replace(/\/+$/, ''),
      apiVersion: e.META_API_VERSION,
      appId: e.META_APP_ID,
      appSecret: e.META_APP_SECRET,
      dialogUrl: e.META_DIALOG_URL,
      requestTimeoutMs: e.META_REQUEST_TIMEOUT_MS,
      maxConcurrencyPerAccount: e.META_MAX_CONCURRENCY_PER_ACCOUNT,
      maxConcurrencyPerToken: e.META_MAX_CONCURRENCY_PER_TOKEN,
    },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    tokenEncryptionKey,
    tokenEncryptionKeyPrevious,
    metaSimPort: e.META_SIM_PORT,
    materials: {
      maxBytes: e.MATERIAL_MAX_BYTES,
      maxOpenUploads: e.MATERIAL_MAX_OPEN_UPLOADS,
      maxReservedBytes: e.MATERIAL_MAX_RESERVED_BYTES,
      minFreeBytes: e.MATERIAL_MIN_FREE_BYTES,
      media: {
        ffmpegPath: e.FFMPEG_PATH,
        ffprobePath: e.FFPROBE_PATH,
        searchPath: e.PATH,
        timeoutMs: e.MEDIA_TOOL_TIMEOUT_SECONDS * 1000,
        concurrency: e.MEDIA_TOOL_CONCURRENCY,
      },
      uploadDir: path.join(dataDir, 'uploads'),
      storage:
        e.MATERIAL_STORAGE === 's3'
          ? {
              kind: 's3',
              endpoint: e.S3_ENDPOINT,
              bucket: e.S3_BUCKET!,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            }
          : { kind: 'local', dir: path.join(dataDir, 'materials') },
      pushPollMs: 5000,
      pushWaitMs: 3 * 60_000,
    },
    reportTimezone: e.REPORT_TIMEZONE,
    hourlyRetentionDays: e.HOURLY_RETENTION_DAYS,
    notify: { webhookHosts: e.NOTIFY_WEBHOOK_HOSTS.trim() === '*' ? '*' : e.NOTIFY_WEBHOOK_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean) },
  };
}
