import { sql, type Kysely } from 'kysely';

/**
 * Materials (素材): files kept once per content hash among live rows, their pushes to ad accounts
 * (one row per pair, so a pair is never pushed twice), the finished tus uploads (what
 * /materials/upload_result answers, and who uploaded a duplicate) and the ads using a material
 * (filled by the publish feature; a material in use cannot be deleted).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table materials (
      id serial primary key,
      kind text not null check (kind in ('video', 'image')),
      platform text not null check (platform in ('dj', 'ec')),
      file_name text not null,
      -- Detected from the content, never from the name.
      mime_type text not null,
      size_bytes bigint not null,
      md5 text not null,
      duration_s numeric(12, 3),
      width integer,
      height integer,
      -- Keys in the storage layer (local disk or S3); thumb_key may equal storage_key (a small image is its own thumbnail).
      storage_key text not null,
      thumb_key text,
      drama_id integer references dramas(id),
      product_id integer references products(id),
      language text,
      editor_id integer references users(id),
      tags text[] not null default '{}',
      remark text not null default '',
      uploader_id integer not null references users(id),
      -- The uploader's department at upload time: staff see their department's materials.
      department_id integer references departments(id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- Soft delete: pushes keep their history; the files are removed at once.
      deleted_at timestamptz
    );
    create unique index materials_md5_key on materials (md5) where deleted_at is null;
    create index materials_created_idx on materials (created_at desc) where deleted_at is null;
    create index materials_uploader_idx on materials (uploader_id) where deleted_at is null;
    create index materials_editor_idx on materials (editor_id) where deleted_at is null;
    create index materials_department_idx on materials (department_id) where deleted_at is null;
    create index materials_drama_idx on materials (drama_id) where deleted_at is null;
    create index materials_product_idx on materials (product_id) where deleted_at is null;
    create index materials_tags_idx on materials using gin (tags);

    -- A finished tus upload: the material it became (created) or matched (duplicate).
    create table material_uploads (
      id text primary key,
      user_id integer not null references users(id),
      material_id integer not null references materials(id),
      status text not null check (status in ('created', 'duplicate')),
      size_bytes bigint not null,
      created_at timestamptz not null default now()
    );
    create index material_uploads_material_idx on material_uploads (material_id, user_id);

    create table material_pushes (
      id serial primary key,
      material_id integer not null references materials(id),
      ad_account_id integer not null references ad_accounts(id),
      state text not null default 'pending' check (state in ('pending', 'uploading', 'processing', 'ready', 'failed')),
      -- advideo id (video) or image hash (image); a video id is kept from the start of its upload,
      -- with the upload session, so a run that died mid-upload resumes or cleans up instead of re-uploading.
      platform_ref text,
      upload_session_id text,
      -- Why it failed: the platform's own words (error), or one of our reasons as a message key and
      -- its parameters (error_key, error_params), shown in the reader's language.
      error text,
      error_key text,
      error_params jsonb,
      attempts integer not null default 0,
      pushed_by integer references users(id),
      task_id bigint references job_runs(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create unique index material_pushes_pair_key on material_pushes (material_id, ad_account_id);
    create index material_pushes_account_idx on material_pushes (ad_account_id);
    create index material_pushes_task_idx on material_pushes (task_id);
    create index material_pushes_active_idx on material_pushes (state) where state in ('pending', 'uploading', 'processing');

    -- Ads built on a material (written by the publish feature).
    create table material_usages (
      material_id integer not null references materials(id),
      ad_account_id integer not null references ad_accounts(id),
      platform_ad_id text not null,
      created_at timestamptz not null default now(),
      primary key (material_id, platform_ad_id)
    );
    create index material_usages_account_idx on material_usages (ad_account_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table material_usages; drop table material_pushes; drop table material_uploads; drop table materials;`.execute(db);
}
