import { sql, type Kysely } from 'kysely';

/** Users, departments, roles, sessions, login throttling and the append-only audit log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id serial primary key,
      account text not null,
      name text not null,
      remark text not null default '',
      pwd_hash text not null,
      is_admin smallint not null default 0,
      is_leader smallint not null default 0,
      platform text not null default 'dj',
      department_id integer,
      status text not null default 'enabled' check (status in ('enabled', 'disabled')),
      login_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    -- A deleted account name may be used again.
    create unique index users_account_key on users (lower(account)) where deleted_at is null;
    create index users_department_idx on users (department_id);

    create table departments (
      id serial primary key,
      name text not null,
      parent_id integer references departments(id),
      sort integer not null default 0,
      leader_id integer references users(id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index departments_sibling_name_key on departments (coalesce(parent_id, 0), lower(name));
    alter table users add constraint users_department_fk foreign key (department_id) references departments(id);

    create table roles (
      id serial primary key,
      name text not null,
      remark text not null default '',
      paths text[] not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index roles_name_key on roles (lower(name));

    create table user_roles (
      user_id integer not null references users(id),
      role_id integer not null references roles(id) on delete cascade,
      primary key (user_id, role_id)
    );
    create index user_roles_role_idx on user_roles (role_id);

    create table sessions (
      id bigserial primary key,
      user_id integer not null references users(id),
      token_hash text not null unique,
      ip text,
      user_agent text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index sessions_user_idx on sessions (user_id) where revoked_at is null;

    create table login_throttle (
      key text primary key,
      failures integer not null,
      first_failed_at timestamptz not null,
      locked_until timestamptz
    );

    create table audit_logs (
      id bigserial primary key,
      actor_id integer,
      actor_account text,
      action text not null,
      entity_type text not null,
      entity_id text,
      before jsonb,
      after jsonb,
      ip text,
      request_id text,
      created_at timestamptz not null default now()
    );
    create index audit_logs_entity_idx on audit_logs (entity_type, entity_id);
    create index audit_logs_created_idx on audit_logs (created_at);

    -- The audit log is append-only: the database itself refuses to change or remove history.
    create function audit_logs_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_logs is append-only';
    end $$;
    create trigger audit_logs_no_update before update or delete on audit_logs
      for each row execute function audit_logs_append_only();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table audit_logs; drop function audit_logs_append_only();
    drop table login_throttle; drop table sessions; drop table user_roles; drop table roles;
    alter table users drop constraint users_department_fk;
    drop table departments; drop table users;
  `.execute(db);
}
