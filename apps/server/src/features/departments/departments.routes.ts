import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { DepartmentService } from './departments.service.ts';

const api = endpoints.sysDepartments;

/** sys-departments: the tree (also the accounts screen's department pickers) and its edits. */
export function departmentRoutes(departments: DepartmentService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.tree, async (req) => departments.tree(req.actor!));
    endpoint(app, api.create, async (req) => departments.create(req.ctx(), req.body));
    endpoint(app, api.edit, async (req) => departments.edit(req.ctx(), req.body));
    endpoint(app, api.delete, async (req) => {
      await departments.remove(req.ctx(), req.body.id);
      return null;
    });
  };
}
