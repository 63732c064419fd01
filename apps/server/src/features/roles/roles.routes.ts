import { createRoleBodySchema, editRoleBodySchema, envelope, idBodySchema, listRolesBodySchema, pageResultSchema, roleSchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import type { RoleService } from './roles.service.ts';

// Role names are also needed where accounts get their roles.
const READ = ['/sys/role', '/sys/accounts'] as const;
const WRITE = ['/sys/role'] as const;

export function roleRoutes(roles: RoleService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['sys-roles'];
    app.post(
      '/sys-roles/list',
      { schema: { tags, body: listRolesBodySchema, response: { 200: envelope(pageResultSchema(roleSchema)) } }, config: { paths: READ } },
      async (req) => ok(await roles.list(req.actor!, req.body)),
    );
    app.post(
      '/sys-roles/create',
      { schema: { tags, body: createRoleBodySchema, response: { 200: envelope(z.object({ id: z.number() })) } }, config: { paths: WRITE } },
      async (req) => ok(await roles.create(req.ctx(), req.body)),
    );
    app.post(
      '/sys-roles/edit',
      { schema: { tags, body: editRoleBodySchema, response: { 200: envelope(z.object({ id: z.number() })) } }, config: { paths: WRITE } },
      async (req) => ok(await roles.edit(req.ctx(), req.body)),
    );
    app.post('/sys-roles/delete', { schema: { tags, body: idBodySchema }, config: { paths: WRITE } }, async (req) => {
      await roles.remove(req.ctx(), req.body.id);
      return ok(null);
    });
  };
}
