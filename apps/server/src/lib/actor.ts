import { IS_ADMIN_MANAGER, IS_ADMIN_SUPER, type AssetScope, type Lang } from '@ads/contracts';

/** The authenticated caller of a request, resolved once by the auth hook. */
export interface Actor {
  id: number;
  account: string;
  name: string;
  is_admin: number;
  is_leader: number;
  department_id: number | null;
  /** 'company' when one of their roles gives the company's authorization assets (lib/scope.ts forAssets). */
  asset_scope: AssetScope;
  sessionId: number;
  /** Permitted route paths (API.md "Session"), in sort order. */
  paths: string[];
  pathSet: ReadonlySet<string>;
}

export const isManager = (a: Actor) => a.is_admin === IS_ADMIN_MANAGER;
export const isSuperAdmin = (a: Actor) => a.is_admin === IS_ADMIN_SUPER;

/** What a service needs to know about the request beyond its input: for scope and the audit log. */
export interface RequestContext {
  actor: Actor;
  ip: string;
  requestId: string;
  lang: Lang;
}
