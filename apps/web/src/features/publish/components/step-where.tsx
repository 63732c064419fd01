import { DeleteOutlined, LinkOutlined } from '@ant-design/icons';
import { PUBLISH_LIMITS, type LinkPreview, type PublishAccountOption } from '@ads/contracts';
import { Alert, Button, Card, Descriptions, Empty, Flex, Form, Input, InputNumber, Result, Select, Table, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TokenStatusTag } from '@/components/token-status-tag';
import { currencyDecimals, formatMoney } from '@/lib/format';
import { useLinkPreview, usePublishAccounts } from '../api/use-publish-lookups';
import { needsPixel, type WizardAccount, type WizardValues } from './draft';
import { useWizard } from './wizard-context';

const URL_PATTERN = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/** A new account's settings: its first page, the site's pixel when shared with it (else its first), the site link. */
export function newAccountEntry(a: PublishAccountOption, link: LinkPreview | undefined): WizardAccount {
  const pixel = a.pixels.find((p) => p.id === link?.pixel_id) ?? a.pixels[0];
  return { ad_account_id: a.id, page_id: a.pages[0]?.id ?? null, pixel_id: pixel?.id ?? null, link: link?.link ?? '', url_tags: link?.url_tags ?? '', budget: null };
}

/** The site link of the drama/product: template, link and url_tags macros, and placeholders the reports cannot read. */
function LinkPreviewCard({ preview, onApplyAll, canApply }: { preview: ReturnType<typeof useLinkPreview>; onApplyAll: () => void; canApply: boolean }) {
  const { t } = useTranslation('publish');
  const data = preview.data;
  if (preview.isPending && preview.fetchStatus === 'idle') return null;
  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center">
          <LinkOutlined />
          {t('where.link.title')}
        </Flex>
      }
      loading={preview.isPending}
      extra={
        <Button size="small" disabled={!data || !canApply} onClick={onApplyAll}>
          {t('where.link.applyAll')}
        </Button>
      }
    >
      {preview.isError ? (
        <Alert type="warning" showIcon title={t('where.link.failed')} />
      ) : data ? (
        <Flex vertical gap={8}>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'site', label: t('where.link.site'), children: `${data.site.name} (${data.site.domain})` },
              { key: 'template', label: t('where.link.template'), children: <Typography.Text code>{data.template}</Typography.Text> },
              { key: 'link', label: t('where.link.link'), children: <Typography.Text copyable>{data.link}</Typography.Text> },
              { key: 'tags', label: t('where.link.urlTags'), children: data.url_tags ? <Typography.Text code>{data.url_tags}</Typography.Text> : '-' },
            ]}
          />
          {data.unsupported.length > 0 && <Alert type="warning" showIcon title={t('where.link.unsupported', { list: data.unsupported.join(', ') })} />}
        </Flex>
      ) : null}
    </Card>
  );
}

/** Step 3: the ad accounts (in scope, active, reached by a valid token) and per account its page, pixel and link. */
export function StepWhere() {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  const form = Form.useFormInstance<WizardValues>();
  const { platform } = useWizard();
  const accountsQuery = usePublishAccounts(platform);
  const what = Form.useWatch('what', { form, preserve: true }) as WizardValues['what'] | undefined;
  const link = useLinkPreview(what ?? {});
  const chosen: WizardAccount[] = Form.useWatch(['where', 'accounts'], { form, preserve: true }) ?? [];
  const goal = Form.useWatch(['adset', 'optimization_goal'], { form, preserve: true }) as string | undefined;
  const pixelRequired = needsPixel(goal);
  const [keyword, setKeyword] = useState('');

  const all = useMemo(() => accountsQuery.data?.list ?? [], [accountsQuery.data]);
  const byId = useMemo(() => new Map(all.map((a) => [a.id, a])), [all]);
  const shown = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    const found = k ? all.filter((a) => a.name.toLowerCase().includes(k) || a.platform_id.includes(k)) : all;
    // Accounts that can be published to first; the others stay listed with the reason.
    return [...found].sort((a, b) => Number(a.blocked !== null) - Number(b.blocked !== null));
  }, [all, keyword]);
  const selectedIds = chosen.map((a) => a.ad_account_id);

  const setChosen = (ids: number[]) => {
    const kept = new Map(chosen.map((a) => [a.ad_account_id, a]));
    const next = ids.map((id) => kept.get(id) ?? newAccountEntry(byId.get(id)!, link.data)).filter(Boolean);
    form.setFieldValue(['where', 'accounts'], next);
    void form.validateFields([['where', 'accounts']]).catch(() => undefined);
  };
  const applyLinkToAll = () => {
    if (!link.data) return;
    form.setFieldValue(
      ['where', 'accounts'],
      chosen.map((a) => ({ ...a, link: link.data.link, url_tags: link.data.url_tags })),
    );
  };

  if (accountsQuery.isError && !accountsQuery.data)
    return <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void accountsQuery.refetch()}>{tc('states.retry')}</Button>} />;

  const blockedText = (a: PublishAccountOption) => (a.blocked ? t(`where.blocked.${a.blocked}`) : null);
  const emptyText =
    accountsQuery.data && all.length === 0
      ? accountsQuery.data.outside_scope > 0
        ? t('where.empty.outsideScope', { count: accountsQuery.data.outside_scope })
        : t('where.empty.none')
      : tc('states.noResults');

  return (
    <Flex vertical gap={16}>
      <Card
        size="small"
        title={t('where.accounts.title')}
        extra={
          <Typography.Text type={selectedIds.length > PUBLISH_LIMITS.accounts ? 'danger' : 'secondary'} data-testid="accounts-selected">
            {t('where.accounts.selected', { count: selectedIds.length, max: PUBLISH_LIMITS.accounts })}
          </Typography.Text>
        }
      >
        <Flex vertical gap={8}>
          <Input.Search allowClear placeholder={t('where.accounts.search')} aria-label={t('where.accounts.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ maxWidth: 320 }} />
          <Table<PublishAccountOption>
            size="small"
            rowKey="id"
            loading={accountsQuery.isPending}
            dataSource={shown}
            pagination={shown.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
            scroll={{ x: 900 }}
            locale={{ emptyText: accountsQuery.isPending ? ' ' : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
            rowSelection={{
              selectedRowKeys: selectedIds,
              preserveSelectedRowKeys: true,
              columnWidth: 40,
              onChange: (keys) => setChosen(keys as number[]),
              getCheckboxProps: (a) => ({ disabled: a.blocked !== null, 'aria-label': a.name }),
              getTitleCheckboxProps: () => ({ 'aria-label': tc('table.selectAll') }),
            }}
            columns={[
              {
                key: 'name',
                title: t('where.columns.account'),
                render: (_, a) => (
                  <Flex vertical>
                    <Typography.Text type={a.blocked ? 'secondary' : undefined}>{a.name}</Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {a.platform_id}
                    </Typography.Text>
                  </Flex>
                ),
              },
              { key: 'currency', title: t('where.columns.currency'), width: 80, render: (_, a) => a.currency },
              { key: 'zone', title: t('where.columns.timezone'), width: 180, render: (_, a) => a.timezone_name },
              { key: 'balance', title: t('where.columns.balance'), width: 150, align: 'right', render: (_, a) => formatMoney(a.balance, a.currency) },
              {
                key: 'token',
                title: t('where.columns.token'),
                width: 110,
                render: (_, a) => (a.token_status ? <TokenStatusTag status={a.token_status} /> : <Tag>{t('where.noToken')}</Tag>),
              },
              {
                key: 'state',
                title: t('where.columns.state'),
                width: 170,
                render: (_, a) =>
                  a.blocked ? (
                    <Tag color="error">{blockedText(a)}</Tag>
                  ) : (
                    <Tag color="success">{t('where.usable')}</Tag>
                  ),
              },
            ]}
          />
        </Flex>
      </Card>

      <LinkPreviewCard preview={link} onApplyAll={applyLinkToAll} canApply={chosen.length > 0} />

      <Card size="small" title={t('where.settings.title')}>
        <Form.List
          name={['where', 'accounts']}
          rules={[
            {
              validator: async (_, list?: unknown[]) => {
                if (!list?.length) throw new Error(t('where.accountsRequired'));
                if (list.length > PUBLISH_LIMITS.accounts) throw new Error(t('where.accountsMax', { max: PUBLISH_LIMITS.accounts }));
              },
            },
          ]}
        >
          {(fields, { remove }, { errors }) => (
            <Flex vertical gap={8}>
              {fields.length === 0 ? (
                <Typography.Text type="secondary">{t('where.settings.none')}</Typography.Text>
              ) : (
                <Table
                  size="small"
                  rowKey="key"
                  pagination={false}
                  dataSource={fields}
                  scroll={{ x: 1080 }}
                  columns={[
                    {
                      key: 'account',
                      title: t('where.columns.account'),
                      width: 180,
                      fixed: 'left',
                      render: (_, f) => {
                        const a = byId.get(chosen[f.name]?.ad_account_id ?? 0);
                        return (
                          <Flex vertical>
                            <Typography.Text>{a?.name ?? `#${chosen[f.name]?.ad_account_id}`}</Typography.Text>
                            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                              {a ? `${a.currency} · ${a.timezone_name}` : ''}
                            </Typography.Text>
                          </Flex>
                        );
                      },
                    },
                    {
                      key: 'page',
                      title: t('where.columns.page'),
                      width: 200,
                      render: (_, f) => {
                        const a = byId.get(chosen[f.name]?.ad_account_id ?? 0);
                        return (
                          <Form.Item name={[f.name, 'page_id']} rules={[{ required: true, message: t('where.pageRequired') }]} style={{ marginBottom: 0 }}>
                            <Select
                              size="small"
                              placeholder={a?.pages.length ? t('where.pickPage') : t('where.noPages')}
                              options={(a?.pages ?? []).map((p) => ({ value: p.id, label: p.name }))}
                              aria-label={t('where.pageOf', { name: a?.name ?? '' })}
                              notFoundContent={t('where.noPages')}
                            />
                          </Form.Item>
                        );
                      },
                    },
                    {
                      key: 'pixel',
                      title: t('where.columns.pixel'),
                      width: 190,
                      render: (_, f) => {
                        const a = byId.get(chosen[f.name]?.ad_account_id ?? 0);
                        return (
                          <Form.Item
                            name={[f.name, 'pixel_id']}
                            rules={[{ required: pixelRequired, message: t('where.pixelRequired') }]}
                            style={{ marginBottom: 0 }}
                          >
                            <Select
                              size="small"
                              allowClear
                              placeholder={a?.pixels.length ? t('where.pickPixel') : t('where.noPixels')}
                              options={(a?.pixels ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.platform_id})` }))}
                              aria-label={t('where.pixelOf', { name: a?.name ?? '' })}
                              notFoundContent={t('where.noPixels')}
                            />
                          </Form.Item>
                        );
                      },
                    },
                    {
                      key: 'link',
                      title: t('where.columns.link'),
                      width: 280,
                      render: (_, f) => (
                        <Form.Item
                          name={[f.name, 'link']}
                          validateFirst
                          rules={[
                            { required: true, whitespace: true, message: t('where.linkRequired') },
                            { pattern: URL_PATTERN, message: t('where.linkInvalid') },
                            { max: 2000, message: t('where.linkInvalid') },
                          ]}
                          style={{ marginBottom: 0 }}
                        >
                          <Input size="small" aria-label={t('where.linkOf', { name: byId.get(chosen[f.name]?.ad_account_id ?? 0)?.name ?? '' })} />
                        </Form.Item>
                      ),
                    },
                    {
                      key: 'url_tags',
                      title: (
                        <Tooltip title={t('where.urlTagsHelp', { macro: '{{campaign.id}}' })}>
                          <span>{t('where.columns.urlTags')}</span>
                        </Tooltip>
                      ),
                      width: 220,
                      render: (_, f) => (
                        <Form.Item name={[f.name, 'url_tags']} rules={[{ max: PUBLISH_LIMITS.urlTagsMax, message: t('where.urlTagsMax', { max: PUBLISH_LIMITS.urlTagsMax }) }]} style={{ marginBottom: 0 }}>
                          <Input size="small" aria-label={t('where.urlTagsOf', { name: byId.get(chosen[f.name]?.ad_account_id ?? 0)?.name ?? '' })} />
                        </Form.Item>
                      ),
                    },
                    {
                      key: 'budget',
                      title: (
                        <Tooltip title={t('where.budgetHelp')}>
                          <span>{t('where.columns.budget')}</span>
                        </Tooltip>
                      ),
                      width: 170,
                      render: (_, f) => {
                        const a = byId.get(chosen[f.name]?.ad_account_id ?? 0);
                        return (
                          <Form.Item name={[f.name, 'budget']} style={{ marginBottom: 0 }}>
                            <InputNumber
                              size="small"
                              min={0.01}
                              precision={a ? currencyDecimals(a.currency) : 2}
                              placeholder={t('where.budgetDefault')}
                              suffix={a?.currency}
                              style={{ width: '100%' }}
                              aria-label={t('where.budgetOf', { name: a?.name ?? '' })}
                            />
                          </Form.Item>
                        );
                      },
                    },
                    {
                      key: 'remove',
                      width: 48,
                      render: (_, f) => (
                        <Button
                          type="text"
                          size="small"
                          icon={<DeleteOutlined />}
                          aria-label={t('where.removeAccount', { name: byId.get(chosen[f.name]?.ad_account_id ?? 0)?.name ?? '' })}
                          onClick={() => remove(f.name)}
                        />
                      ),
                    },
                  ]}
                />
              )}
              <Form.ErrorList errors={errors} />
            </Flex>
          )}
        </Form.List>
      </Card>
    </Flex>
  );
}
