import { formatMetric, metrics, type DashboardTop } from '@ads/contracts';
import { Flex, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettings } from '@/stores/settings-store';

interface Props {
  rows: DashboardTop[];
  loading: boolean;
  /** Where a row opens (the report filtered to it), or undefined when the viewer may not open it. */
  linkOf: (row: DashboardTop) => string | undefined;
  /** A row without a name (an object the catalog does not know): its id. */
  fallbackName: (row: DashboardTop) => string;
  testId: string;
}

/** A ranked list of the top lists (dramas, products, campaigns): spend, revenue, ROI and D0 ROI as the reports show them. */
export function TopTable({ rows, loading, linkOf, fallbackName, testId }: Props) {
  const { t } = useTranslation('home');
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const metric = (k: 'spend' | 'revenue' | 'roi' | 'd0_roi', width: number) => ({
    key: k,
    title: metrics[k].title[lang],
    width,
    align: 'right' as const,
    render: (_: unknown, r: DashboardTop) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMetric(k, r[k], lang)}</span>,
  });
  const columns: TableColumnsType<DashboardTop> = [
    { key: 'rank', title: '#', width: 40, render: (_, __, i) => <Typography.Text type="secondary">{i + 1}</Typography.Text> },
    {
      key: 'name',
      title: t('delivery.columns.name'),
      ellipsis: true,
      render: (_, r) => {
        const name = r.name || fallbackName(r);
        const to = linkOf(r);
        return (
          <Flex vertical style={{ minWidth: 0 }}>
            {to ? <Link to={to}>{name}</Link> : <Typography.Text>{name}</Typography.Text>}
            {r.detail && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
                {r.detail}
              </Typography.Text>
            )}
          </Flex>
        );
      },
    },
    metric('spend', 110),
    metric('revenue', 110),
    metric('roi', 90),
    metric('d0_roi', 90),
  ];
  return (
    <Table<DashboardTop>
      data-testid={testId}
      rowKey={(r) => String(r.id ?? r.name)}
      size="small"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={false}
      scroll={{ x: 560 }}
      locale={{ emptyText: t('delivery.emptyTop') }}
    />
  );
}
