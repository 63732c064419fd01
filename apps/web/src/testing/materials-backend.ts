import type { AssignMode, Material, MaterialFacets, MaterialPush, PushCounts } from '@ads/contracts';
import { buildTask } from './asset-factories';
import { assetsBackend, type AssetSeed } from './assets-backend';
import { buildPush } from './material-factories';
import { MockRefusal, type Handlers } from './mock-api';

export interface MaterialSeed extends AssetSeed {
  materials?: Material[];
  pushes?: MaterialPush[];
  /**
   * Ads using a material as the server knows it, when it differs from what the list showed
   * (someone published an ad with it meanwhile): delete is refused for these.
   */
  adsUsingOnServer?: Record<number, number>;
}

function applyTags(current: string[], chosen: string[], mode: AssignMode) {
  if (mode === 'replace') return [...chosen];
  if (mode === 'remove') return current.filter((t) => !chosen.includes(t));
  return [...current, ...chosen.filter((t) => !current.includes(t))];
}

const countsOf = (pushes: MaterialPush[], materialId: number): PushCounts => {
  const c: PushCounts = { pending: 0, uploading: 0, processing: 0, ready: 0, failed: 0 };
  for (const p of pushes) if (p.material.id === materialId) c[p.state]++;
  return c;
};

/**
 * An in-memory stand-in for the /materials endpoints on top of the asset backend (dramas,
 * products, ad accounts, users, tasks): filters, sort, paging, facets, edits, the delete refusal
 * for materials ads use, pushes with skipping of pairs already pushed, and retries.
 */
export function materialsBackend(seed: MaterialSeed = {}) {
  const assets = assetsBackend(seed);
  const a = assets.db;
  const db = {
    // Copies: edits must not leak into the seed objects other tests build from.
    materials: (seed.materials ?? []).map((m) => structuredClone(m)),
    pushes: (seed.pushes ?? []).map((p) => structuredClone(p)),
  };
  let nextId = 7000;
  const refresh = (m: Material): Material => ({ ...m, push_counts: countsOf(db.pushes, m.id) });
  const find = (id: number) => db.materials.find((m) => m.id === id);
  const dramaRef = (id: number | null | undefined) => {
    if (id == null) return null;
    const d = a.dramas.find((x) => x.id === id);
    return { id, name: d?.name ?? `Drama ${id}` };
  };
  const productRef = (id: number | null | undefined) => {
    if (id == null) return null;
    const p = a.products.find((x) => x.id === id);
    return { id, name: p?.name ?? `Product ${id}` };
  };
  const userRef = (id: number | null | undefined) => {
    if (id == null) return null;
    return { id, name: a.users.find((u) => u.id === id)?.name ?? `User ${id}` };
  };
  const newTask = (title: string) => {
    const task = buildTask({ id: ++nextId, job_name: 'push-materials', title, status: 'queued' });
    a.tasks.unshift(task);
    return task;
  };

  const handlers: Handlers = {
    ...assets.handlers,
    '/materials/list': (b) => {
      const active = (c: PushCounts) => c.pending + c.uploading + c.processing > 0;
      let rows = db.materials.map(refresh).filter((m) => {
        const k = b.keyword?.toLowerCase();
        if (k && !m.file_name.toLowerCase().includes(k) && !m.remark.toLowerCase().includes(k) && !m.md5.includes(k)) return false;
        if (b.kind && m.kind !== b.kind) return false;
        if (b.platform && m.platform !== b.platform) return false;
        if (b.drama_id !== undefined && m.drama?.id !== b.drama_id) return false;
        if (b.product_id !== undefined && m.product?.id !== b.product_id) return false;
        if (b.editor_id !== undefined && m.editor?.id !== b.editor_id) return false;
        if (b.uploader_id !== undefined && m.uploader.id !== b.uploader_id) return false;
        if (b.language && m.language !== b.language) return false;
        if (b.tags && !b.tags.every((t) => m.tags.includes(t))) return false;
        const day = m.created_at.slice(0, 10);
        if (b.date_from && day < b.date_from) return false;
        if (b.date_to && day > b.date_to) return false;
        const c = b.ad_account_id === undefined ? m.push_counts : countsOf(db.pushes.filter((p) => p.ad_account.id === b.ad_account_id), m.id);
        const any = Object.values(c).some((n) => n > 0);
        if (b.push === 'none' && any) return false;
        if (b.push === 'some' && !any) return false;
        if (b.push === 'failed' && c.failed === 0) return false;
        if (b.push === 'active' && !active(c)) return false;
        return true;
      });
      if (b.sort_field) {
        const f = b.sort_field;
        const dir = b.sort_order === 'descend' ? -1 : 1;
        rows = [...rows].sort((x, y) => ((x[f] ?? 0) < (y[f] ?? 0) ? -dir : (x[f] ?? 0) > (y[f] ?? 0) ? dir : 0));
      }
      return { list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: rows.length };
    },
    '/materials/facets': (b): MaterialFacets => {
      const rows = db.materials.filter((m) => !b?.platform || m.platform === b.platform);
      const tags = new Map<string, number>();
      for (const m of rows) for (const t of m.tags) tags.set(t, (tags.get(t) ?? 0) + 1);
      const uniq = <T extends { id: number }>(list: (T | null)[]) => [...new Map(list.filter((x): x is T => x !== null).map((x) => [x.id, x])).values()];
      return {
        tags: [...tags].map(([tag, count]) => ({ tag, count })),
        editors: uniq(rows.map((m) => m.editor)),
        uploaders: uniq(rows.map((m) => m.uploader)),
        languages: [...new Set(rows.flatMap((m) => (m.language ? [m.language] : [])))],
      };
    },
    '/materials/get': (b) => {
      const m = find(b.id);
      return m ? refresh(m) : new MockRefusal('The material does not exist.');
    },
    '/materials/edit': (b) => {
      const m = find(b.id);
      if (!m) return new MockRefusal('The material does not exist.');
      if (b.file_name !== undefined) m.file_name = b.file_name;
      if (b.drama_id !== undefined) m.drama = dramaRef(b.drama_id);
      if (b.product_id !== undefined) m.product = productRef(b.product_id);
      if (b.language !== undefined) m.language = b.language;
      if (b.editor_id !== undefined) m.editor = userRef(b.editor_id);
      if (b.tags !== undefined) m.tags = b.tags;
      if (b.remark !== undefined) m.remark = b.remark;
      m.updated_at = new Date().toISOString();
      return refresh(m);
    },
    '/materials/batch_edit': (b) => {
      const rows = b.ids.map(find).filter((m): m is Material => !!m);
      for (const m of rows) {
        if (b.drama_id !== undefined && m.platform === 'dj') m.drama = dramaRef(b.drama_id);
        if (b.product_id !== undefined && m.platform === 'ec') m.product = productRef(b.product_id);
        if (b.language !== undefined) m.language = b.language;
        if (b.editor_id !== undefined) m.editor = userRef(b.editor_id);
        if (b.tags !== undefined) m.tags = applyTags(m.tags, b.tags, b.tags_mode ?? 'add');
        if (b.remark !== undefined) m.remark = b.remark;
      }
      return { updated: rows.length };
    },
    '/materials/delete': (b) => {
      const used = b.ids
        .map((id) => ({ m: find(id), n: seed.adsUsingOnServer?.[id] ?? find(id)?.ads_using ?? 0 }))
        .filter((x): x is { m: Material; n: number } => !!x.m && x.n > 0);
      if (used.length) return new MockRefusal(`Materials used by ads cannot be deleted: ${used.map((x) => `${x.m.file_name} (${x.n} ads)`).join(', ')}`);
      const before = db.materials.length;
      db.materials = db.materials.filter((m) => !b.ids.includes(m.id));
      return { deleted: before - db.materials.length };
    },
    '/materials/check_hash': (b) => {
      const m = db.materials.find((x) => x.md5 === b.md5);
      return { material: m ? refresh(m) : null };
    },
    '/materials/push': (b) => {
      let queued = 0;
      let skipped = 0;
      const task = newTask(`Push ${b.material_ids.length} material(s)`);
      for (const materialId of b.material_ids) {
        for (const accountId of b.ad_account_ids) {
          if (db.pushes.some((p) => p.material.id === materialId && p.ad_account.id === accountId && p.state !== 'failed')) {
            skipped++;
            continue;
          }
          const account = a.adAccounts.find((a) => a.id === accountId);
          db.pushes.unshift(
            buildPush({
              id: ++nextId,
              material: { id: materialId, name: find(materialId)?.file_name ?? '' },
              ad_account: { id: accountId, name: account?.name ?? `Account ${accountId}`, platform_id: account?.platform_id ?? `act_${accountId}` },
              state: 'pending',
              attempts: 0,
              task_id: task.id,
            }),
          );
          queued++;
        }
      }
      if (!queued) {
        a.tasks.splice(a.tasks.indexOf(task), 1);
        return { task_id: null, queued, skipped };
      }
      return { task_id: task.id, queued, skipped };
    },
    '/materials/pushes': (b) => {
      const rows = db.pushes.filter(
        (p) =>
          (b.material_id === undefined || p.material.id === b.material_id) &&
          (b.ad_account_id === undefined || p.ad_account.id === b.ad_account_id) &&
          (!b.state || p.state === b.state) &&
          (b.task_id === undefined || p.task_id === b.task_id),
      );
      return { list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: rows.length };
    },
    '/materials/retry_push': (b) => {
      const targets = db.pushes.filter((p) => p.state === 'failed' && (b.push_ids ? b.push_ids.includes(p.id) : p.material.id === b.material_id));
      if (!targets.length) return new MockRefusal('No failed pushes to retry.');
      const task = newTask('Retry pushes');
      for (const p of targets) Object.assign(p, { state: 'pending', error: null, task_id: task.id });
      return { task_id: task.id, queued: targets.length, skipped: 0 };
    },
  };

  return { db, assets: a, handlers };
}
