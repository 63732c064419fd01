import { z } from 'zod';
import { idBodySchema, pageResultSchema } from '../envelope.ts';
import {
  createStartBodySchema,
  createStartResultSchema,
  listStartCampaignsBodySchema,
  listStartSchemesBodySchema,
  listStartTasksBodySchema,
  START_PATHS,
  startCampaignSchema,
  startResultSchema,
  startSchemeSchema,
  startTaskSchema,
} from '../start.ts';
import { define } from './define.ts';

// Start management (启动管理, issue 8). The server checks that every campaign and scheme is in the
// caller's data scope; the tasks listed are those of people in the caller's scope.

export const startTasks = {
  campaigns: define({ path: '/start-tasks/campaigns', body: listStartCampaignsBodySchema, answer: pageResultSchema(startCampaignSchema), allow: START_PATHS, tag: 'start', summary: 'Campaigns (mirrors) in the caller’s scope to switch' }),
  schemes: define({ path: '/start-tasks/schemes', body: listStartSchemesBodySchema, answer: pageResultSchema(startSchemeSchema), allow: START_PATHS, tag: 'start', summary: 'Publish schemes in the caller’s scope to switch as a whole' }),
  create: define({ path: '/start-tasks/create', body: createStartBodySchema, answer: createStartResultSchema, allow: START_PATHS, tag: 'start', summary: 'Queues start tasks: on now or at a time (per market zone or a chosen zone), and off at a time' }),
  list: define({ path: '/start-tasks/list', body: listStartTasksBodySchema, answer: pageResultSchema(startTaskSchema), allow: START_PATHS, tag: 'start', summary: 'Start tasks of people in the caller’s scope, with result counts' }),
  results: define({ path: '/start-tasks/results', body: idBodySchema, answer: z.object({ list: z.array(startResultSchema) }), allow: START_PATHS, tag: 'start', summary: 'A task’s per-object results (its operation log rows)' }),
  cancel: define({ path: '/start-tasks/cancel', body: idBodySchema, answer: z.object({ cancelled: z.boolean() }), allow: START_PATHS, tag: 'start', summary: 'Cancels a task that has not run yet' }),
};
