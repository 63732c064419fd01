import { sql, type Kysely } from 'kysely';

// Page posts (帖子管理, issue 8): posts made here on pages, one row per post, from a material
// (video or image) or a link, published or not. A bulk create is a batch run by a job; each row
// keeps its own outcome (pending → creating → created | failed). `creating` means the call went
// out: the job looks the post up by message and material before it resends.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table page_posts (
      id serial primary key,
      batch_id text not null,
      page_id integer not null references pages (id),
      kind text not null check (kind in ('video', 'photo', 'link')),
      material_id integer references materials (id),
      message text not null,
      link text,
      call_to_action text,
      published boolean not null,
      status text not null default 'pending' check (status in ('pending', 'creating', 'created', 'failed')),
      platform_post_id text,
      platform_media_id text,
      error text,
      error_en text,
      attempts integer not null default 0,
      task_id bigint references job_runs (id) on delete set null,
      created_by integer not null references users (id),
      created_at timestamptz not null default now(),
      posted_at timestamptz,
      updated_at timestamptz not null default now()
    );
    create index page_posts_page_idx on page_posts (page_id, created_at desc);
    create index page_posts_batch_idx on page_posts (batch_id, id);
    create index page_posts_user_idx on page_posts (created_by, created_at desc);
    create unique index page_posts_platform_idx on page_posts (platform_post_id) where platform_post_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table page_posts;`.execute(db);
}
