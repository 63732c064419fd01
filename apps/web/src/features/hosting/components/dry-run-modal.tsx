import type { DryRunResult, DryRunRow } from '@ads/contracts';
import { Alert, Flex, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { OutcomeTag } from './outcome-tag';
import { changeText, type Lang } from './rule-format';
import { RuleValues } from './rule-values';

/** What a rule would do now, object by object with the figures; nothing was acted on. */
export function DryRunModal({ result, name, lang, onClose }: { result: DryRunResult | null; name: string; lang: Lang; onClose: () => void }) {
  const { t } = useTranslation('rules');
  const { t: tc } = useTranslation();
  return (
    <Modal open={result !== null} onCancel={onClose} title={t('dryRun.title', { name })} width={1000} footer={null} destroyOnHidden>
      {result && (
        <Flex vertical gap={12} data-testid="dry-run-result">
          <Alert type="info" showIcon title={t('dryRun.note')} />
          <Flex gap={16} wrap>
            <Typography.Text strong>{t('dryRun.summary', { accounts: result.accounts, checked: result.objects_checked, matched: result.matched })}</Typography.Text>
            <Typography.Text type="secondary">{t('dryRun.reportDay', { day: result.report_day })}</Typography.Text>
            {result.data_as_of && <Typography.Text type="secondary">{t('dryRun.dataAsOf', { time: formatDateTime(result.data_as_of) })}</Typography.Text>}
          </Flex>
          <Table<DryRunRow>
            size="small"
            rowKey={(r) => `${r.level}-${r.object.id}`}
            dataSource={result.rows}
            pagination={result.rows.length > 20 ? { pageSize: 20, showTotal: (n) => tc('table.total', { total: n }) } : false}
            scroll={{ x: 900 }}
            locale={{ emptyText: t('dryRun.none') }}
            columns={[
              {
                key: 'object',
                title: t('dryRun.columns.object'),
                width: 220,
                render: (_, r) => (
                  <Flex vertical>
                    <Typography.Text strong>{r.object.name}</Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t(`level.${r.level}`)} · {r.object.platform_id} · {r.status}
                    </Typography.Text>
                  </Flex>
                ),
              },
              { key: 'account', title: t('dryRun.columns.account'), width: 160, render: (_, r) => r.ad_account.name },
              { key: 'outcome', title: t('dryRun.columns.outcome'), width: 130, render: (_, r) => (
                <Flex vertical gap={2}>
                  <OutcomeTag outcome={r.outcome} />
                  {r.reason && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.reason}</Typography.Text>}
                </Flex>
              ) },
              { key: 'values', title: t('dryRun.columns.values'), width: 300, render: (_, r) => <RuleValues values={r.values} lang={lang} /> },
              { key: 'change', title: t('dryRun.columns.change'), width: 160, render: (_, r) => changeText(r.before, r.after) },
            ]}
          />
        </Flex>
      )}
    </Modal>
  );
}
