import { z } from 'zod';
import { pageResultSchema } from '../envelope.ts';
import { taskRefSchema } from '../assets.ts';
import {
  channelSchema,
  deliverySchema,
  dryRunBodySchema,
  dryRunResultSchema,
  HOSTING_RULE_PATHS,
  listChannelsBodySchema,
  listDeliveriesBodySchema,
  listEvaluationsBodySchema,
  listFiringsBodySchema,
  listRulesBodySchema,
  ruleEvaluationSchema,
  ruleFiringSchema,
  ruleOptionsSchema,
  ruleSchema,
  saveChannelBodySchema,
  saveRuleBodySchema,
  toggleRuleBodySchema,
} from '../hosting-rules.ts';
import { idBodySchema } from '../envelope.ts';
import { define } from './define.ts';

// Hosting rules (issue 10) on /operation/account 广告托管: rules, their dry run and history, and
// the notification channels they and the system alerts send to. Rules, history and channels are
// filtered by data scope (their owners are people whose data the caller sees).

const HOSTING = HOSTING_RULE_PATHS;
const deleted = z.object({ deleted: z.number().int() });

export const hostingRules = {
  list: define({ path: '/hosting-rules/list', body: listRulesBodySchema, answer: pageResultSchema(ruleSchema), allow: HOSTING, tag: 'hosting-rules', summary: 'Rules in scope, with their last evaluation' }),
  get: define({ path: '/hosting-rules/get', body: idBodySchema, answer: ruleSchema, allow: HOSTING, tag: 'hosting-rules' }),
  save: define({ path: '/hosting-rules/save', body: saveRuleBodySchema, answer: ruleSchema, allow: HOSTING, tag: 'hosting-rules', summary: 'Creates (no id) or replaces a rule' }),
  delete: define({ path: '/hosting-rules/delete', body: idBodySchema, answer: deleted, allow: HOSTING, tag: 'hosting-rules' }),
  toggle: define({ path: '/hosting-rules/toggle', body: toggleRuleBodySchema, answer: ruleSchema, allow: HOSTING, tag: 'hosting-rules', summary: 'Switches a rule on or off (on again clears its failures)' }),
  dry_run: define({ path: '/hosting-rules/dry_run', body: dryRunBodySchema, answer: dryRunResultSchema, allow: HOSTING, tag: 'hosting-rules', summary: 'What a saved or unsaved rule would do now, with the figures; acts on nothing' }),
  run_now: define({ path: '/hosting-rules/run_now', body: idBodySchema, answer: taskRefSchema, allow: HOSTING, tag: 'hosting-rules', summary: 'Evaluates a rule now (refreshing its accounts first) as a task, acting as it would on schedule' }),
  options: define({ path: '/hosting-rules/options', answer: ruleOptionsSchema, allow: HOSTING, tag: 'hosting-rules', summary: 'People, departments, hosted ad accounts, dramas, products and channels the rule editor offers' }),
};

export const ruleHistory = {
  evaluations: define({ path: '/rule-history/evaluations', body: listEvaluationsBodySchema, answer: pageResultSchema(ruleEvaluationSchema), allow: HOSTING, tag: 'hosting-rules', summary: 'Every evaluation: objects checked, acted on, skipped, failed' }),
  firings: define({ path: '/rule-history/firings', body: listFiringsBodySchema, answer: pageResultSchema(ruleFiringSchema), allow: HOSTING, tag: 'hosting-rules', summary: 'Every firing with the figures that triggered it' }),
  export: define({ path: '/rule-history/export', body: listFiringsBodySchema, answer: 'xlsx', allow: HOSTING, tag: 'hosting-rules', summary: 'The firings as .xlsx' }),
};

export const notificationChannels = {
  list: define({ path: '/notification-channels/list', body: listChannelsBodySchema, answer: pageResultSchema(channelSchema), allow: HOSTING, tag: 'notifications' }),
  save: define({ path: '/notification-channels/save', body: saveChannelBodySchema, answer: channelSchema, allow: HOSTING, tag: 'notifications', summary: 'Creates (no id) or edits a channel; secrets are stored encrypted and never answered' }),
  delete: define({ path: '/notification-channels/delete', body: idBodySchema, answer: deleted, allow: HOSTING, tag: 'notifications' }),
  test: define({ path: '/notification-channels/test', body: idBodySchema, answer: deliverySchema, allow: HOSTING, tag: 'notifications', summary: 'Sends a test message now and answers its delivery' }),
};

export const notifications = {
  list: define({ path: '/notifications/list', body: listDeliveriesBodySchema, answer: pageResultSchema(deliverySchema), allow: HOSTING, tag: 'notifications', summary: 'Deliveries of the channels in scope: sent, waiting (retries, rate limit) or failed, with repeats counted' }),
};
