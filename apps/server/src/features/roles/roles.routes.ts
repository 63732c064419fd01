import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { RoleService } from './roles.service.ts';

const api = endpoints.sysRoles;

/** sys-roles: the list (also where accounts get their roles) and its edits. */
export function roleRoutes(roles: RoleService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => roles.list(req.actor!, req.body));
    endpoint(app, api.create, async (req) => roles.create(req.ctx(), req.body));
    endpoint(app, api.edit, async (req) => roles.edit(req.ctx(), req.body));
    endpoint(app, api.delete, async (req) => {
      await roles.remove(req.ctx(), req.body.id);
      return null;
    });
  };
}
