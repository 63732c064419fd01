import type zh from '../zh-CN/home';
import type { Shape } from '../shape';

export default {
  today: 'Today',
  yesterday: 'Yesterday',
  spend: 'Spend',
  revenue: 'Revenue',
  roi: 'ROI',
  orders: 'Orders',
  trend: 'Last 30 days',
  topDramas: 'Top dramas',
  topCampaigns: 'Top campaigns',
  alerts: 'Token and account alerts',
  noDelivery: 'No delivery data yet',
  noDeliveryHint: 'Once personal accounts are connected and ad accounts synced, spend, revenue and ROI appear here hour by hour.',
  noAlerts: 'Nothing needs attention',
  welcome: 'Hello, {{name}}',
  usd: 'Amounts in US dollars (USD)',
} satisfies Shape<typeof zh>;
