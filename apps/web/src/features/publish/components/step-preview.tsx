import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import type { PublishIssue, PublishMoney, PublishPreview, PublishPreviewAccount } from '@ads/contracts';
import { Alert, Button, Card, Collapse, Flex, List, Result, Spin, Statistic, Table, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatMoney } from '@/lib/format';

/** The step a draft field belongs to (a check's "fix it" link). */
export function stepOfField(field: string | null): number | null {
  if (!field) return null;
  const top = field.split('.')[0];
  if (top === 'what' || top === 'scheme_name') return 0;
  if (top === 'creatives') return 1;
  if (top === 'where') return 2;
  if (top === 'structure' || top === 'campaign' || top === 'adset' || top === 'ad' || top === 'naming') return 3;
  if (top === 'launch') return 5;
  return null;
}

const money = (m: Pick<PublishMoney, 'major' | 'currency'> | null | undefined) => (m ? formatMoney(m.major, m.currency) : '');

/** The checks: errors (they block submit) first, then warnings, each with where to fix it. */
export function IssueList({ issues, accounts, onGo }: { issues: PublishIssue[]; accounts: PublishPreviewAccount[]; onGo: (step: number) => void }) {
  const { t } = useTranslation('publish');
  const { token } = theme.useToken();
  const sorted = [...issues].sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
  const nameOf = new Map(accounts.map((a) => [a.ad_account_id, a.name]));
  return (
    <List
      size="small"
      bordered
      data-testid="preview-issues"
      dataSource={sorted}
      renderItem={(issue) => {
        const step = stepOfField(issue.field);
        return (
          <List.Item
            actions={
              step !== null
                ? [
                    <Button key="go" size="small" type="link" onClick={() => onGo(step)}>
                      {t('preview.fix', { step: t(`steps.${(['what', 'creatives', 'where', 'settings', 'preview', 'submit'] as const)[step]!}`) })}
                    </Button>,
                  ]
                : []
            }
          >
            <Flex gap={8} align="flex-start">
              {issue.level === 'error' ? <CloseCircleFilled style={{ color: token.colorError, marginTop: 4 }} /> : <ExclamationCircleFilled style={{ color: token.colorWarning, marginTop: 4 }} />}
              <Flex vertical gap={2}>
                <Typography.Text type={issue.level === 'error' ? 'danger' : 'warning'}>{issue.message}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {[t(`preview.source.${issue.source}`), issue.ad_account_id !== null ? nameOf.get(issue.ad_account_id) : null, issue.key].filter(Boolean).join(' · ')}
                </Typography.Text>
              </Flex>
            </Flex>
          </List.Item>
        );
      }}
    />
  );
}

/** The totals of a preview: counts, daily budget per currency and in USD. */
export function PreviewTotals({ preview }: { preview: Pick<PublishPreview, 'totals'> }) {
  const { t } = useTranslation('publish');
  const totals = preview.totals;
  return (
    <Flex gap={32} wrap data-testid="preview-totals">
      <Statistic title={t('preview.totals.accounts')} value={totals.accounts} />
      <Statistic title={t('preview.totals.campaigns')} value={totals.campaigns} />
      <Statistic title={t('preview.totals.adsets')} value={totals.adsets} />
      <Statistic title={t('preview.totals.ads')} value={totals.ads} />
      <Flex vertical gap={2}>
        <Typography.Text type="secondary">{t('preview.totals.dailyBudget')}</Typography.Text>
        {totals.daily_budget.length === 0 ? (
          <Typography.Text>-</Typography.Text>
        ) : (
          totals.daily_budget.map((b) => (
            <Typography.Text key={b.currency} strong>
              {formatMoney(b.major, b.currency)}
            </Typography.Text>
          ))
        )}
      </Flex>
      <Statistic title={t('preview.totals.dailyUsd')} value={formatMoney(totals.daily_budget_usd, 'USD')} />
      {totals.lifetime_budget_usd > 0 && <Statistic title={t('preview.totals.lifetimeUsd')} value={formatMoney(totals.lifetime_budget_usd, 'USD')} />}
    </Flex>
  );
}

interface Row {
  key: string;
  level: 'campaign' | 'adset' | 'ad';
  name: string;
  settings: ReactNode;
  creative?: ReactNode;
  children?: Row[];
}

/** One account's objects as a tree table: campaigns → ad sets → ads with their names and settings. */
function AccountTree({ account, issueKeys }: { account: PublishPreviewAccount; issueKeys: Map<string, 'error' | 'warning'> }) {
  const { t } = useTranslation('publish');
  const { token } = theme.useToken();
  const rows: Row[] = account.campaigns.map((c) => ({
    key: c.key,
    level: 'campaign',
    name: c.name,
    settings: [t(`enums.objective.${c.objective}`), t(`enums.bidStrategy.${c.bid_strategy}`), c.budget ? `${t(`preview.budget.${c.budget.kind}`)} ${money(c.budget)}` : t('preview.budget.adsets')].join(' · '),
    children: c.adsets.map((s) => ({
      key: s.key,
      level: 'adset',
      name: s.name,
      settings: [
        s.budget ? `${t(`preview.budget.${s.budget.kind}`)} ${money(s.budget)}` : null,
        s.bid_amount ? `${t('preview.bid')} ${money(s.bid_amount)}` : null,
        s.countries.join(','),
        t(`enums.goal.${s.optimization_goal}`),
        s.conversion_event ? t(`enums.event.${s.conversion_event}`) : null,
        s.pixel ? `${t('preview.pixel')} ${s.pixel.name}` : null,
        s.start_local ? `${t('preview.start')} ${s.start_local.replace('T', ' ')} ${s.start_time_zone ?? ''}` : t('preview.startOnSwitch'),
      ]
        .filter(Boolean)
        .join(' · '),
      children: s.ads.map((ad) => ({
        key: ad.key,
        level: 'ad',
        name: ad.name,
        settings: t(`enums.cta.${ad.call_to_action}`),
        creative: (
          <Flex vertical>
            <Typography.Text style={{ fontSize: 12 }}>
              {ad.creative.kind === 'post' ? `${t('preview.post')} ${ad.creative.post_id}` : ad.creative.kind === 'dynamic' ? t('preview.dynamic', { count: ad.creative.material_ids.length }) : (ad.creative.material_name ?? '-')}
            </Typography.Text>
            {ad.creative.primary_text && (
              <Typography.Text type="secondary" ellipsis={{ tooltip: ad.creative.primary_text }} style={{ fontSize: 12, maxWidth: 260 }}>
                {ad.creative.primary_text}
              </Typography.Text>
            )}
          </Flex>
        ),
      })),
    })),
  }));
  return (
    <Table<Row>
      size="small"
      rowKey="key"
      dataSource={rows}
      pagination={false}
      scroll={{ x: 1000 }}
      expandable={{ defaultExpandAllRows: true, indentSize: 16 }}
      columns={[
        {
          key: 'name',
          title: t('preview.columns.name'),
          width: 380,
          render: (_, r) => (
            <Flex gap={6} align="center" wrap={false}>
              <Tag style={{ marginInlineEnd: 0 }}>{t(`levels.${r.level}`)}</Tag>
              <Typography.Text style={{ color: issueKeys.get(r.key) === 'error' ? token.colorError : undefined }} data-testid="preview-name">
                {r.name}
              </Typography.Text>
            </Flex>
          ),
        },
        { key: 'settings', title: t('preview.columns.settings'), render: (_, r) => <Typography.Text style={{ fontSize: 12 }}>{r.settings}</Typography.Text> },
        { key: 'creative', title: t('preview.columns.creative'), width: 280, render: (_, r) => r.creative ?? null },
      ]}
    />
  );
}

interface Props {
  preview: { data?: PublishPreview; isPending: boolean; isFetching: boolean; isError: boolean; refetch: () => unknown };
  onGo: (step: number) => void;
}

/** Step 5: every object per account, the totals and every check (errors block submit, warnings allow it). */
export function StepPreview({ preview, onGo }: Props) {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  if (preview.isPending || (preview.isFetching && !preview.data))
    return (
      <Flex vertical align="center" gap={12} style={{ padding: 48 }} aria-busy="true">
        <Spin />
        <Typography.Text type="secondary">{t('preview.checking')}</Typography.Text>
      </Flex>
    );
  if (preview.isError || !preview.data)
    return <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void preview.refetch()}>{tc('states.retry')}</Button>} />;
  const data = preview.data;
  const errors = data.issues.filter((i) => i.level === 'error').length;
  const warnings = data.issues.length - errors;
  const issueKeys = new Map<string, 'error' | 'warning'>();
  for (const i of data.issues) if (i.key && issueKeys.get(i.key) !== 'error') issueKeys.set(i.key, i.level);

  return (
    <Flex vertical gap={16}>
      {errors > 0 ? (
        <Alert type="error" showIcon title={t('preview.blocked', { count: errors })} description={warnings ? t('preview.andWarnings', { count: warnings }) : undefined} data-testid="preview-verdict" />
      ) : (
        <Alert type={warnings ? 'warning' : 'success'} showIcon title={warnings ? t('preview.okWithWarnings', { count: warnings }) : t('preview.ok')} data-testid="preview-verdict" />
      )}
      {!data.platform_checked && <Alert type="info" showIcon title={t('preview.notPlatformChecked')} />}
      <Card size="small" title={t('preview.schemeName', { name: data.scheme_name })}>
        <PreviewTotals preview={data} />
      </Card>
      {data.issues.length > 0 && <IssueList issues={data.issues} accounts={data.accounts} onGo={onGo} />}
      <Collapse
        defaultActiveKey={data.accounts.length <= 3 ? data.accounts.map((a) => String(a.ad_account_id)) : [String(data.accounts[0]?.ad_account_id)]}
        items={data.accounts.map((a) => ({
          key: String(a.ad_account_id),
          label: (
            <Flex gap={8} wrap align="center">
              <Typography.Text strong>{a.name}</Typography.Text>
              <Typography.Text type="secondary">
                {a.currency} · {a.timezone_name}
              </Typography.Text>
              <Tag>{t('settings.structure.counts', { campaigns: formatCount(a.counts.campaigns), adsets: formatCount(a.counts.adsets), ads: formatCount(a.counts.ads) })}</Tag>
              {a.daily_budget && <Tag color="blue">{t('preview.dailyOf', { amount: money(a.daily_budget), usd: formatMoney(a.daily_budget.usd, 'USD') })}</Tag>}
              {a.page && <Tag>{t('preview.page')} {a.page.name}</Tag>}
              {a.pixel && <Tag>{t('preview.pixel')} {a.pixel.name}</Tag>}
              {a.materials_to_push.length > 0 && <Tag color="gold">{t('preview.toPush', { count: a.materials_to_push.length })}</Tag>}
            </Flex>
          ),
          children: <AccountTree account={a} issueKeys={issueKeys} />,
        }))}
      />
    </Flex>
  );
}
