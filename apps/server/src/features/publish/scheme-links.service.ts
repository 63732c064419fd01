import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PublishSchemeItemRow } from '../../db/schema.ts';
import { recordMaterialUsages } from '../materials/materials.service.ts';
import type { CreativeSpec } from './publish.plan.ts';

// The link between a scheme's items and the mirrors of what they created (ad_campaigns, ad_sets,
// ads, ad_creatives): scheme, item and publisher on the mirrors, the materials each ad uses, and
// the item's object_id once its mirror exists. The engine does it right after its own refresh;
// the ad data sync does it for items whose mirror first arrived through it (a refresh that
// failed, a server stopped between the create and the refresh), matched by platform id.

const specOf = <T>(i: PublishSchemeItemRow) => i.spec as T;

/** Every material a creative item needs on its account, with its role. */
export function creativeMaterials(i: PublishSchemeItemRow): { id: number; role: 'video' | 'cover' | 'image' }[] {
  const s = specOf<CreativeSpec>(i);
  if (s.kind === 'post') return [];
  if (s.kind === 'dynamic') return [...(s.dynamic?.video_material_ids ?? []).map((id) => ({ id, role: 'video' as const })), ...(s.dynamic?.image_material_ids ?? []).map((id) => ({ id, role: 'image' as const }))];
  return [
    ...(s.video_material_id ? [{ id: s.video_material_id, role: 'video' as const }] : []),
    ...(s.cover_material_id ? [{ id: s.cover_material_id, role: 'cover' as const }] : []),
    ...(s.image_material_id ? [{ id: s.image_material_id, role: 'image' as const }] : []),
  ];
}

/**
 * Marks mirrored objects as a publish scheme's: the scheme and item, the publisher as owner
 * (`scheme`: stays the owner, design §3), and for ads and creatives the materials they were built
 * on. Answers the local ids by platform id (objects not mirrored yet are absent).
 */
export async function stampPublished(
  db: Db,
  input: {
    schemeId: number;
    ownerUserId: number;
    objects: { level: 'campaign' | 'adset' | 'ad'; platform_id: string; scheme_item_id: number; material_id?: number | null; cover_material_id?: number | null }[];
    creatives: { platform_id: string; material_id: number | null; cover_material_id: number | null }[];
  },
  now: Date,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  await db.transaction().execute(async (trx) => {
    for (const c of input.creatives) {
      await trx
        .updateTable('ad_creatives')
        .set({ material_id: sql<number | null>`coalesce(${c.material_id}::int, material_id)`, cover_material_id: c.cover_material_id, updated_at: now })
        .where('platform_id', '=', c.platform_id)
        .execute();
    }
    const table = { campaign: 'ad_campaigns', adset: 'ad_sets', ad: 'ads' } as const;
    for (const o of input.objects) {
      const base = { scheme_id: input.schemeId, scheme_item_id: o.scheme_item_id, owner_user_id: input.ownerUserId, owner_source: 'scheme' as const, updated_at: now };
      const row =
        o.level === 'ad'
          ? await trx
              .updateTable('ads')
              .set({ ...base, ...(o.material_id !== undefined && { material_id: o.material_id }), ...(o.cover_material_id !== undefined && { cover_material_id: o.cover_material_id }) })
              .where('platform_id', '=', o.platform_id)
              .returning('id')
              .executeTakeFirst()
          : await trx.updateTable(table[o.level]).set(base).where('platform_id', '=', o.platform_id).returning('id').executeTakeFirst();
      if (row) ids.set(o.platform_id, row.id);
    }
  });
  return ids;
}

/**
 * Stamps the mirrors of created items of one scheme in one ad account (those not linked yet),
 * links each item to its mirror and records the ads' material usages. `byId` holds the scheme's
 * items (an ad's creative item is read from it). Answers how many items got their mirror.
 */
export async function linkSchemeItems(
  db: Db,
  scheme: { id: number; created_by: number },
  adAccountId: number,
  items: readonly PublishSchemeItemRow[],
  byId: ReadonlyMap<number, PublishSchemeItemRow>,
  now: Date,
): Promise<number> {
  const created = items.filter((i) => i.status === 'created' && i.platform_id && i.object_id === null);
  if (!created.length) return 0;
  const creatives = created.filter((i) => i.level === 'creative');
  const objects = created
    .filter((i) => i.level !== 'creative')
    .map((i) => {
      const creative = i.level === 'ad' && i.creative_item_id !== null ? byId.get(i.creative_item_id) : undefined;
      const cs = creative ? specOf<CreativeSpec>(creative) : null;
      return {
        level: i.level as 'campaign' | 'adset' | 'ad',
        platform_id: i.platform_id!,
        scheme_item_id: i.id,
        ...(i.level === 'ad' && { material_id: cs?.video_material_id ?? cs?.image_material_id ?? cs?.dynamic?.video_material_ids[0] ?? null, cover_material_id: cs?.cover_material_id ?? null }),
      };
    });
  const ids = await stampPublished(
    db,
    {
      schemeId: scheme.id,
      ownerUserId: scheme.created_by,
      objects,
      creatives: creatives.map((c) => {
        const s = specOf<CreativeSpec>(c);
        return { platform_id: c.platform_id!, material_id: s.video_material_id ?? s.image_material_id ?? null, cover_material_id: s.cover_material_id };
      }),
    },
    now,
  );
  const creativeIds = creatives.length ? await db.selectFrom('ad_creatives').select(['id', 'platform_id']).where('platform_id', 'in', creatives.map((c) => c.platform_id!)).execute() : [];
  for (const c of creativeIds) ids.set(c.platform_id, c.id);
  // Usages first: an item linked to its mirror is never visited again.
  const usages = created
    .filter((i) => i.level === 'ad' && ids.has(i.platform_id!) && i.creative_item_id !== null && byId.has(i.creative_item_id))
    .flatMap((ad) => creativeMaterials(byId.get(ad.creative_item_id!)!).map((m) => ({ material_id: m.id, ad_account_id: adAccountId, platform_ad_id: ad.platform_id!, ad_id: ids.get(ad.platform_id!)!, role: m.role })));
  await recordMaterialUsages(db, usages, now);
  let linked = 0;
  for (const i of created) {
    const objectId = ids.get(i.platform_id!);
    if (objectId === undefined) continue;
    await db.updateTable('publish_scheme_items').set({ object_id: objectId, updated_at: now }).where('id', '=', i.id).execute();
    linked += 1;
  }
  return linked;
}

/**
 * For the ad data sync, after it wrote an account's objects: items of any scheme created in that
 * account whose mirror was not linked yet are linked now, by the platform ids the items recorded.
 */
export async function linkSchemeItemsOfAccount(db: Db, adAccountId: number, now: Date): Promise<number> {
  const waiting = await db
    .selectFrom('publish_scheme_items as i')
    .innerJoin('publish_schemes as s', 's.id', 'i.scheme_id')
    .select(['i.scheme_id', 's.created_by'])
    .where('i.ad_account_id', '=', adAccountId)
    .where('i.status', '=', 'created')
    .where('i.object_id', 'is', null)
    .where('i.platform_id', 'is not', null)
    .distinct()
    .execute();
  let linked = 0;
  for (const w of waiting) {
    const items = await db.selectFrom('publish_scheme_items').selectAll().where('scheme_id', '=', w.scheme_id).where('ad_account_id', '=', adAccountId).execute();
    linked += await linkSchemeItems(db, { id: w.scheme_id, created_by: w.created_by }, adAccountId, items, new Map(items.map((i) => [i.id, i])), now);
  }
  return linked;
}
