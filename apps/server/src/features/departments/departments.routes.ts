import { createDepartmentBodySchema, departmentNodeSchema, editDepartmentBodySchema, envelope, idBodySchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import type { DepartmentService } from './departments.service.ts';

// The tree also feeds the department pickers of the accounts screen (the same part of it as the list there).
const READ = ['/sys/department', '/sys/accounts'] as const;
const WRITE = ['/sys/department'] as const;

export function departmentRoutes(departments: DepartmentService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['sys-departments'];
    app.post(
      '/sys-departments/tree',
      { schema: { tags, response: { 200: envelope(z.array(departmentNodeSchema)) } }, config: { paths: READ } },
      async (req) => ok(await departments.tree(req.actor!)),
    );
    app.post(
      '/sys-departments/create',
      { schema: { tags, body: createDepartmentBodySchema, response: { 200: envelope(z.object({ id: z.number() })) } }, config: { paths: WRITE } },
      async (req) => ok(await departments.create(req.ctx(), req.body)),
    );
    app.post(
      '/sys-departments/edit',
      { schema: { tags, body: editDepartmentBodySchema, response: { 200: envelope(z.object({ id: z.number() })) } }, config: { paths: WRITE } },
      async (req) => ok(await departments.edit(req.ctx(), req.body)),
    );
    app.post('/sys-departments/delete', { schema: { tags, body: idBodySchema }, config: { paths: WRITE } }, async (req) => {
      await departments.remove(req.ctx(), req.body.id);
      return ok(null);
    });
  };
}
