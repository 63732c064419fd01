import type zh from '../zh-CN/hosting';
import type { Shape } from '../shape';

export default {
  explain: {
    title: 'What hosting does',
    body: 'Hosted ad accounts are watched by automatic rules: a rule checks the campaigns and ad sets of the account against its conditions, acts when they are met, and records every action.',
    stopLoss: 'Stop-loss',
    stopLossBody: 'For example pause when 24 h spend ≥ 30 with no purchase, or ROI < 0.3 after 48 h — paused for the day, revived the next.',
    budgetCap: 'Budget caps',
    budgetCapBody: 'Limit ad set daily budgets and how often they change, to avoid overspend and the platform’s budget-change limits.',
    audit: 'Every action on record',
    auditBody: 'Each firing keeps the figures that triggered it, the values before and after, and the result.',
    notYet: 'Rules act on hosted accounts only',
    notYetBody: 'Adding accounts to hosting or removing them changes nothing on Facebook by itself; rules that are on check hosted accounts on their schedule and act through Facebook when their conditions hold. Set them under "Rules"; see every act under "History".',
  },
  stats: {
    hosted: 'Hosted',
    available: 'Not hosted',
    rules: 'Rules running',
  },
  tabs: {
    hosted: 'Hosted',
    available: 'Not hosted',
  },
  add: 'Add to hosting',
  remove: 'Remove from hosting',
  addSelected: 'Add to hosting',
  pickAccounts: 'Pick accounts to host',
  removeSelected: 'Remove from hosting',
  emptyHosted: 'No ad account is hosted yet — pick some under "Not hosted".',
  emptyAvailable: 'No ad account to add — connect a personal account and sync it, and its ad accounts appear here.',
  confirmAdd: {
    title_one: 'Add {{count}} ad account to hosting?',
    title_other: 'Add {{count}} ad accounts to hosting?',
    body: 'Rules that are on will watch these accounts and may act on their ads. Adding them changes nothing on Facebook by itself.',
  },
  confirmRemove: {
    title_one: 'Remove {{count}} ad account from hosting?',
    title_other: 'Remove {{count}} ad accounts from hosting?',
    body: 'Rules will no longer act on these accounts. Nothing changes on Facebook.',
  },
  added: '{{count}} account(s) added to hosting',
  removed: '{{count}} account(s) removed from hosting',
  outsideHosted: 'No hosted ad account in your data scope; the company has {{count}} more. Ask a manager if you need to see them.',
  outsideAvailable: 'No ad account to add in your data scope; the company has {{count}} more. Ask a manager if you need to see them.',
} satisfies Shape<typeof zh>;
