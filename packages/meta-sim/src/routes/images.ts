import { createHash } from 'node:crypto';
import { ADS_READ, ADS_WRITE } from '../domain.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { EdgeDef, NodeDef, NodeRegistry } from '../graph/node.ts';
import type { AdAccountRecord, ImageRecord } from '../store/state.ts';
import { accountTime, userCanUseAccount } from './common.ts';
import { renderList } from './users.ts';

// Ad images (reference §7): multipart upload (or base64 `bytes`) → hash (the MD5 of the file,
// as on the Graph API); read by hash; id `<account_id>:<hash>`.

export function imageUrl(ctx: GraphContext, hash: string): string {
  return `${ctx.sim.baseUrl()}/__sim/media/${hash}.png`;
}

/** Width and height from a PNG, GIF or JPEG header; 0×0 for anything else. */
export function imageSize(head: Buffer): { width: number; height: number } {
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47) return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  if (head.length >= 10 && head.toString('ascii', 0, 3) === 'GIF') return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) {
    let i = 2;
    while (i + 9 < head.length) {
      if (head[i] !== 0xff) return { width: 0, height: 0 };
      const marker = head[i + 1]!;
      const length = head.readUInt16BE(i + 2);
      // SOF0–SOF15 carry the frame size (except DHT C4, JPG C8, DAC CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: head.readUInt16BE(i + 5), width: head.readUInt16BE(i + 7) };
      }
      i += 2 + length;
    }
  }
  return { width: 0, height: 0 };
}

function store(ctx: GraphContext, account: AdAccountRecord, name: string, md5: string, head: Buffer): { hash: string; url: string } {
  const key = `${account.id}:${md5}`;
  const existing = ctx.sim.store.state.images[key];
  const { width, height } = imageSize(head);
  const image: ImageRecord = existing
    ? { ...existing, status: 'ACTIVE', updated_at: ctx.now }
    : { hash: md5, account_id: account.id, name, width, height, status: 'ACTIVE', created_at: ctx.now, updated_at: ctx.now };
  ctx.sim.store.state.images[key] = image;
  ctx.sim.store.changed();
  return { hash: md5, url: imageUrl(ctx, md5) };
}

function upload(ctx: GraphContext, account: AdAccountRecord): unknown {
  const images: Record<string, { hash: string; url: string }> = {};
  for (const file of ctx.files) images[file.filename || file.field] = store(ctx, account, file.filename || file.field, file.md5, file.head);
  const bytes = ctx.params.string('bytes');
  if (bytes !== undefined) {
    const data = Buffer.from(bytes, 'base64');
    if (data.length === 0) throw errors.invalidParameter('bytes must be base64 encoded image data', { data: { blame_field_specs: [['bytes']] } });
    const name = ctx.params.string('name') ?? 'bytes';
    images[name] = store(ctx, account, name, createHash('md5').update(data).digest('hex'), data.subarray(0, 64 * 1024));
  }
  if (Object.keys(images).length === 0) throw errors.invalidParameter('No image was uploaded: send a file part or bytes');
  return { images };
}

export function imageNode(): NodeDef<ImageRecord> {
  return {
    kind: 'image',
    typeName: 'AdImage',
    load: (ctx, id) => ctx.sim.store.state.images[id],
    visible: (ctx, img) => userCanUseAccount(ctx, ctx.sim.store.account(img.account_id)),
    accountId: (img) => img.account_id,
    fields: {
      id: (img) => `${img.account_id}:${img.hash}`,
      account_id: (img) => img.account_id,
      hash: (img) => img.hash,
      name: (img) => img.name,
      url: (img, ctx) => imageUrl(ctx, img.hash),
      url_128: (img, ctx) => `${imageUrl(ctx, img.hash)}?w=128`,
      permalink_url: (img, ctx) => imageUrl(ctx, img.hash),
      width: (img) => img.width,
      height: (img) => img.height,
      original_width: (img) => img.width,
      original_height: (img) => img.height,
      status: (img) => img.status,
      created_time: (img, ctx) => accountTime(ctx, img.account_id, img.created_at),
      updated_time: (img, ctx) => accountTime(ctx, img.account_id, img.updated_at),
    },
    defaultFields: ['hash', 'id'],
    scopes: { read: ADS_READ, write: ADS_WRITE },
    edges: {},
  };
}

export function accountImagesEdge(registry: NodeRegistry): EdgeDef<AdAccountRecord> {
  return {
    get: (ctx, a) => {
      const hashes = ctx.params.list('hashes');
      const images = Object.values(ctx.sim.store.state.images).filter(
        (img) => img.account_id === a.id && img.status === 'ACTIVE' && (!hashes || hashes.includes(img.hash)),
      );
      // Images have no numeric id; order by upload time, newest first.
      const rows = images.sort((x, y) => y.created_at - x.created_at).map((img) => ({ ...img, id: `${img.account_id}:${img.hash}` }));
      return renderList(ctx, registry, 'image', rows, ['hash', 'id']);
    },
    post: upload,
    delete: (ctx, a) => {
      const hash = ctx.params.requiredString('hash');
      const image = ctx.sim.store.state.images[`${a.id}:${hash}`];
      if (!image) throw errors.invalidParameter(`Image ${hash} does not exist`, { data: { blame_field_specs: [['hash']] } });
      image.status = 'DELETED';
      image.updated_at = ctx.now;
      ctx.sim.store.changed();
      return { success: true };
    },
  };
}
