import { Flex, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AdOpResult } from '../api/use-ad-data-mutations';
import { describeChange } from './op-format';

/** A row of the table: an operation's answer, or a log row of an act still under way (pending). */
export type OpRow = Omit<AdOpResult, 'result'> & { result: AdOpResult['result'] | 'pending' };

/**
 * What an operation will do (a dry run: preview or refused) or did (ok or failed), one row per
 * object, with the change in words and, on failure, the platform's reason. Rows of several levels
 * (a copy that re-creates a tree) say their level.
 */
export function OpResultsTable({ results, mode, creates = false }: { results: readonly OpRow[]; mode: 'confirm' | 'done'; /** The act makes new objects (a copy): the preview says "will be created". */ creates?: boolean }) {
  const { t } = useTranslation('adData');
  return (
    <Table<OpRow>
      size="small"
      rowKey={(r) => `${r.level ?? ''}-${r.id}-${r.operation_id ?? ''}-${r.platform_id}-${r.name}`}
      dataSource={[...results]}
      pagination={results.length > 10 ? { pageSize: 10, size: 'small' } : false}
      data-testid={mode === 'confirm' ? 'op-preview' : 'op-results'}
      columns={[
        {
          key: 'name',
          title: t('fields.object'),
          width: 220,
          render: (_, r) => (
            <Flex vertical>
              <span>
                {r.level && <Tag>{t(`levels.${r.level}`)}</Tag>}
                {r.name}
              </span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.platform_id}
              </Typography.Text>
            </Flex>
          ),
        },
        {
          key: 'change',
          title: t('fields.change'),
          render: (_, r) => (
            <Flex vertical>
              {describeChange(r.before, r.after, t).map((line) => (
                <span key={line}>{line}</span>
              ))}
            </Flex>
          ),
        },
        {
          key: 'result',
          title: t('fields.result'),
          width: 260,
          render: (_, r) => (
            <Flex vertical gap={4}>
              {r.result === 'preview' && <Tag color="blue">{creates ? t('result.willCreate') : t('result.preview')}</Tag>}
              {r.result === 'ok' && <Tag color="success">{t('result.ok')}</Tag>}
              {r.result === 'pending' && <Tag color="processing">{t('result.pending')}</Tag>}
              {r.result === 'failed' && <Tag color="error">{mode === 'confirm' ? t('result.refused') : t('result.failed')}</Tag>}
              {r.error && <Typography.Text type="danger">{r.error}</Typography.Text>}
              {r.warnings.map((w) => (
                <Typography.Text key={w} type="warning">
                  {w}
                </Typography.Text>
              ))}
            </Flex>
          ),
        },
      ]}
    />
  );
}
