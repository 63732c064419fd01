import { materialPushSchema, materialSchema, type Material, type MaterialPush } from '@ads/contracts';

/** Builders for materials and their pushes: every object is parsed by its contract schema. */

let nextId = 5000;
const id = () => ++nextId;
const instant = '2026-03-01T08:30:00.000Z';

export function buildMaterial(overrides: Partial<Material> = {}): Material {
  const n = overrides.id ?? id();
  return materialSchema.parse({
    id: n,
    kind: 'video',
    platform: 'dj',
    file_name: `clip-${n}.mp4`,
    mime_type: 'video/mp4',
    size_bytes: 12_582_912,
    md5: n.toString(16).padStart(32, '0'),
    duration_s: 31.5,
    width: 720,
    height: 1280,
    thumbnail_url: `/api/material/file/${n}/thumb.jpg?sig=x`,
    file_url: `/api/material/file/${n}/video.mp4?sig=x`,
    drama: null,
    product: null,
    language: null,
    editor: null,
    tags: [],
    remark: '',
    uploader: { id: 1, name: 'Manager' },
    department: null,
    push_counts: { pending: 0, uploading: 0, processing: 0, ready: 0, failed: 0 },
    ads_using: 0,
    created_at: instant,
    updated_at: instant,
    ...overrides,
  });
}

export function buildPush(overrides: Partial<MaterialPush> = {}): MaterialPush {
  const n = overrides.id ?? id();
  return materialPushSchema.parse({
    id: n,
    material: { id: 1, name: 'clip.mp4' },
    ad_account: { id: 1, name: 'Ad account 1', platform_id: 'act_1' },
    state: 'ready',
    platform_ref: null,
    error: null,
    attempts: 1,
    pushed_by: { id: 1, name: 'Manager' },
    task_id: null,
    created_at: instant,
    updated_at: instant,
    finished_at: null,
    ...overrides,
  });
}
