import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { createMaterialService } from '../features/materials/materials.service.ts';
import { createMediaTools, runTool } from '../features/materials/media.ts';
import { createMaterialStorage } from '../features/materials/storage.ts';
import type { Jobs } from '../jobs/types.ts';
import type { Actor, RequestContext } from '../lib/actor.ts';
import type { Clock } from '../lib/clock.ts';
import { secretBoxFor } from '../lib/crypto.ts';
import { createUrlSigner } from '../lib/signed-url.ts';
import type { Db } from './database.ts';

/**
 * DEMO=1, after the demo assets (demo-assets.ts): a library to click through — short vertical
 * drama cuts and e-commerce clips and images by the demo editors, with dramas, products,
 * languages and tags, made on the spot with ffmpeg (test patterns: no media ships in the repo)
 * and taken in through the same ingest as an upload (probe, thumbnail, storage, MD5). A few are
 * pushed to ad accounts, so push states show once the job has run. Once per database.
 */

const DONE_KEY = 'demo.materials';
/** Seeding takes seconds; a 'running' claim this old was left by a start that did not finish. */
const STALE_CLAIM_MS = 2 * 60_000;

export interface DemoMaterialsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: Jobs;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

interface DemoMaterial {
  file: string;
  editor: string;
  /** External id of a drama (dj) or a product (ec) from demo-assets.ts. */
  ref: string;
  language: string | null;
  tags: string[];
  remark?: string;
  /** ffmpeg lavfi source of the picture; a still image when `image` is set. */
  source: string;
  /** Hue shift (degrees), so two cuts from the same pattern look apart. */
  hue?: number;
  image?: boolean;
}

const DJ: DemoMaterial[] = [
  { file: 'D1001_总裁的替身新娘_高光01.mp4', editor: 'zhoujie', ref: 'D1001', language: 'zh', tags: ['高光', '前三集'], source: 'testsrc2=size=540x960:rate=25', remark: '开头 3 秒强冲突' },
  { file: 'D1001_总裁的替身新娘_混剪02.mp4', editor: 'wuxia', ref: 'D1001', language: 'zh', tags: ['混剪'], source: 'testsrc=size=540x960:rate=25' },
  { file: 'D1002_重生之医妃归来_高光01.mp4', editor: 'zhoujie', ref: 'D1002', language: 'zh', tags: ['高光', '古装'], source: 'smptebars=size=540x960:rate=25' },
  { file: 'D1003_闪婚后大佬每天都在宠我_前情01.mp4', editor: 'wuxia', ref: 'D1003', language: 'zh', tags: ['前三集'], source: 'rgbtestsrc=size=540x960:rate=25' },
  { file: 'E2001_Billionaire_Secret_Heir_hook01.mp4', editor: 'zhoujie', ref: 'E2001', language: 'en', tags: ['hook', 'highlight'], source: 'testsrc2=size=540x960:rate=25', hue: 40 },
  { file: 'E2002_Alpha_King_cut02.mp4', editor: 'wuxia', ref: 'E2002', language: 'en', tags: ['highlight'], source: 'smptebars=size=540x960:rate=25', hue: 90 },
  { file: 'J3001_社長の秘密の花嫁_ハイライト01.mp4', editor: 'zhoujie', ref: 'J3001', language: 'ja', tags: ['ハイライト'], source: 'testsrc2=size=540x960:rate=25', hue: 120 },
  { file: 'J3002_転生令嬢_予告01.mp4', editor: 'wuxia', ref: 'J3002', language: 'ja', tags: ['予告'], source: 'testsrc=size=540x960:rate=25', hue: 200 },
];

const EC: DemoMaterial[] = [
  { file: 'SKU-101_Silk_Sleep_Mask_UGC01.mp4', editor: 'zhengkai', ref: 'SKU-101', language: 'en', tags: ['UGC'], source: 'smptehdbars=size=720x720:rate=25' },
  { file: 'SKU-102_Portable_Blender_demo01.mp4', editor: 'zhengkai', ref: 'SKU-102', language: 'en', tags: ['demo', 'kitchen'], source: 'testsrc2=size=720x720:rate=25', hue: 300 },
  { file: 'SKU-104_LED_Sunset_Lamp_main.jpg', editor: 'zhengkai', ref: 'SKU-104', language: null, tags: ['主图'], source: 'mandelbrot=size=1080x1080', image: true },
];

/** Seconds per demo video: long enough to scrub, small enough (~1 MB) to make in well under a second. */
const VIDEO_S = 6;

function ffmpegArgs(m: DemoMaterial, out: string, seed: number): string[] {
  if (m.image) return ['-v', 'error', '-y', '-f', 'lavfi', '-i', m.source, '-frames:v', '1', '-q:v', '3', out];
  return [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', m.source],
    // A tone per file: every demo video has sound, and no two are the same bytes.
    ...['-f', 'lavfi', '-i', `sine=frequency=${220 + seed * 55}:duration=${VIDEO_S}`],
    ...(m.hue ? ['-vf', `hue=h=${m.hue}`] : []),
    ...['-t', String(VIDEO_S), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', out],
  ];
}

/** Runs once per database; answers a one-line description of what it added, or null. */
export async function seedDemoMaterials(deps: DemoMaterialsDeps): Promise<string | null> {
  const { db, clock, config, jobs, log } = deps;
  // Claimed first, so a second process starting together does not seed too. A claim left 'running'
  // by a start that was stopped mid-way (Ctrl-C before the server listens) is taken over once it
  // is older than any seeding takes; 'done' and 'skipped' are final.
  const now = clock.now();
  const claimed = await db
    .insertInto('app_settings')
    .values({ key: DONE_KEY, value: 'running', updated_at: now })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ value: 'running', updated_at: now })
        .where('app_settings.value', '=', 'running')
        .where('app_settings.updated_at', '<', new Date(now.getTime() - STALE_CLAIM_MS)),
    )
    .returning('key')
    .executeTakeFirst();
  if (!claimed) return null;
  const scratch = path.join(config.materials.uploadDir, '.work', 'demo');
  try {
    const people = await db.selectFrom('users').select(['id', 'account', 'name', 'is_admin', 'is_leader', 'department_id']).where('deleted_at', 'is', null).execute();
    const byAccount = new Map(people.map((p) => [p.account, p]));
    const dramas = new Map((await db.selectFrom('dramas').select(['id', 'external_id']).where('deleted_at', 'is', null).execute()).map((d) => [d.external_id, d.id]));
    const products = new Map((await db.selectFrom('products').select(['id', 'external_id']).where('deleted_at', 'is', null).execute()).map((p) => [p.external_id, p.id]));
    const manager = people.find((p) => p.account === 'manager');
    if (!manager || !byAccount.has('zhoujie') || !dramas.size) {
      log.warn({}, 'DEMO=1: the demo staff or catalog are missing, so no demo materials were added');
      await db.updateTable('app_settings').set({ value: 'skipped' }).where('key', '=', DONE_KEY).execute();
      return null;
    }

    const secrets = secretBoxFor(db, config.tokenEncryptionKey);
    const media = createMediaTools(config.materials.media);
    const materials = createMaterialService({
      db,
      clock,
      jobs,
      storage: createMaterialStorage(config.materials.storage),
      media,
      signer: createUrlSigner({ secrets, clock }),
      reportTimezone: config.reportTimezone,
      workDir: path.join(config.materials.uploadDir, '.work'),
      log,
    });
    await fsp.mkdir(scratch, { recursive: true });

    const created: Record<'dj' | 'ec', number[]> = { dj: [], ec: [] };
    const all = [...DJ.map((m) => ({ m, platform: 'dj' as const })), ...EC.map((m) => ({ m, platform: 'ec' as const }))];
    // What an interrupted earlier seeding already took in is reused, not made again (an encoder
    // need not give the same bytes twice, so the MD5 dedup alone would not catch it).
    const earlier = new Map(
      (await db.selectFrom('materials').select(['id', 'file_name']).where('file_name', 'in', all.map((a) => a.m.file)).where('deleted_at', 'is', null).execute()).map((r) => [r.file_name, r.id]),
    );
    for (const [i, { m, platform }] of all.entries()) {
      const known = earlier.get(m.file);
      if (known !== undefined) {
        created[platform].push(known);
        continue;
      }
      const editor = byAccount.get(m.editor) ?? manager;
      const file = path.join(scratch, `${i}${path.extname(m.file)}`);
      const made = await runTool(media.ffmpeg.path, ffmpegArgs(m, file, i));
      if (made.code !== 0) throw new Error(`ffmpeg could not make ${m.file}: ${made.stderr.slice(-300)}`);
      const { size } = await fsp.stat(file);
      const result = await materials.ingest(
        { actor: editor, ip: '127.0.0.1', requestId: 'demo-seed' },
        {
          id: `demo-${randomUUID()}`,
          file,
          size,
          meta: {
            file_name: m.file,
            platform,
            drama_id: platform === 'dj' ? (dramas.get(m.ref) ?? null) : null,
            product_id: platform === 'ec' ? (products.get(m.ref) ?? null) : null,
            language: m.language,
            editor_id: editor.id,
            tags: m.tags,
            remark: m.remark ?? '',
          },
        },
      );
      // A duplicate is a file an interrupted earlier seeding already took in: it counts (push skips pairs already pushed).
      created[platform].push(result.material.id);
    }

    // Two drama cuts and one e-commerce clip, each to the first two ad accounts of an optimizer of that business.
    const firstAccounts = async (account: string) =>
      (await db.selectFrom('user_ad_accounts as ua').innerJoin('users as u', 'u.id', 'ua.user_id').select('ua.ad_account_id').where('u.account', '=', account).orderBy('ua.ad_account_id').limit(2).execute()).map((r) => r.ad_account_id);
    const actor: Actor = { ...manager, asset_scope: 'own', sessionId: 0, paths: [], pathSet: new Set() };
    const ctx: RequestContext = { actor, ip: '127.0.0.1', requestId: 'demo-seed', lang: 'zh' };
    let pushed = 0;
    for (const [ids, account] of [[created.dj.slice(0, 2), 'zhangwei'], [created.ec.slice(0, 1), 'zhaolei']] as const) {
      const accounts = await firstAccounts(account);
      if (!ids.length || !accounts.length) continue;
      pushed += (await materials.push(ctx, { material_ids: [...ids], ad_account_ids: accounts })).queued;
    }

    await db.updateTable('app_settings').set({ value: 'done', updated_at: clock.now() }).where('key', '=', DONE_KEY).execute();
    return `${created.dj.length} drama and ${created.ec.length} e-commerce materials, ${pushed} pushes queued`;
  } catch (err) {
    await db.deleteFrom('app_settings').where('key', '=', DONE_KEY).execute();
    throw err;
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}
