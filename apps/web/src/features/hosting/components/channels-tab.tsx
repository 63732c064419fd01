import { PlusOutlined, SendOutlined } from '@ant-design/icons';
import { CHANNEL_TYPES, pageBodySchema, saveChannelBodySchema, SIGNED_CHANNELS, type ChannelType, type NotificationChannel, type NotificationDelivery } from '@ads/contracts';
import { Alert, App, Button, Card, Checkbox, Descriptions, Flex, Form, Input, InputNumber, Modal, Select, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ListTable, useListQuery, type ListColumn } from '@/components/list-kit';
import { confirmAction } from '@/lib/confirm';
import { applyFieldErrors } from '@/lib/form-errors';
import { formatDateTime } from '@/lib/format';
import { useSettings } from '@/stores/settings-store';
import { useChannels, useDeleteChannel, useDeliveries, useSaveChannel, useTestChannel } from '../api/use-rules';
import { cleanValues, showIssues } from './form-issues';

export const channelsQuerySchema = pageBodySchema.extend({ view: z.literal('channels').optional() });

const STATUS_COLOR = { sent: 'green', failed: 'red', pending: 'gold' } as const;

function DeliveryStatus({ d }: { d: Pick<NotificationDelivery, 'status'> }) {
  const { t } = useTranslation('rules');
  return <Tag color={STATUS_COLOR[d.status]}>{t(`channels.delivery.${d.status}`)}</Tag>;
}

/** The editor of one channel: secrets are never shown; left empty they stay as saved. */
function ChannelForm({ open, channel, onClose }: { open: boolean; channel: NotificationChannel | null; onClose: () => void }) {
  const { t } = useTranslation('rules');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const [form] = Form.useForm();
  const save = useSaveChannel();
  const previous = useRef<(string | number)[][]>([]);
  const [issues, setIssues] = useState<string[]>([]);
  const type = Form.useWatch('type', form) as ChannelType | undefined;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    previous.current = [];
    form.setFieldsValue(
      channel
        ? {
            name: channel.name,
            type: channel.type,
            enabled: channel.enabled,
            system_alerts: channel.system_alerts,
            lang: channel.lang,
            rate_limit_per_minute: channel.rate_limit_per_minute,
            email: channel.email ? { smtp_host: channel.email.smtp_host, smtp_port: channel.email.smtp_port, smtp_secure: channel.email.smtp_secure, smtp_user: channel.email.smtp_user, from: channel.email.from, to: channel.email.to } : undefined,
          }
        : { type: 'feishu', enabled: true, system_alerts: false, lang, rate_limit_per_minute: 20, email: { smtp_port: 465, smtp_secure: true, to: [] } },
    );
  }, [open, channel, form, lang]);

  const onSave = async () => {
    const { clear_secret, ...values } = form.getFieldsValue(true) as Record<string, unknown> & { clear_secret?: boolean; type: ChannelType };
    const body = cleanValues({ ...values, id: channel?.id, ...(values.type !== 'email' && { email: undefined }), ...(values.type === 'email' && { webhook_url: undefined, secret: undefined }) }) as Record<string, unknown>;
    // An emptied secret is kept unless the user asked to clear it.
    if (clear_secret && SIGNED_CHANNELS.includes(values.type)) body.secret = '';
    const parsed = saveChannelBodySchema.safeParse(body);
    const shown = showIssues(form, parsed.success ? [] : parsed.error.issues, lang, previous.current);
    previous.current = shown.paths;
    setIssues(shown.messages);
    if (!parsed.success) return;
    try {
      await save.mutateAsync(body as z.input<typeof saveChannelBodySchema>);
      message.success(t('channels.saved'));
      close();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  // The messages of a previous opening go with it.
  const close = () => {
    setIssues([]);
    onClose();
  };

  const editing = channel !== null;
  return (
    <Modal open={open} onCancel={close} title={editing ? t('channels.editTitle') : t('channels.createTitle')} onOk={() => void onSave()} okText={tc('actions.save', { defaultValue: 'OK' })} confirmLoading={save.isPending} width={640} destroyOnHidden>
      <Form form={form} layout="vertical" aria-label="channel-form" requiredMark={false}>
        <Flex gap={12}>
          <Form.Item label={t('channels.name')} name="name" style={{ flex: 1 }}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item label={t('channels.channelType')} name="type">
            <Select style={{ width: 160 }} disabled={editing} options={CHANNEL_TYPES.map((c) => ({ value: c, label: t(`channels.type.${c}`) }))} />
          </Form.Item>
        </Flex>
        {type !== 'email' ? (
          <>
            <Form.Item label={t('channels.webhook')} name="webhook_url" extra={editing && channel.webhook_url_masked ? t('channels.webhookKeep', { masked: channel.webhook_url_masked }) : undefined}>
              <Input placeholder={editing ? (channel.webhook_url_masked ?? '') : 'https://'} autoComplete="off" />
            </Form.Item>
            {type && SIGNED_CHANNELS.includes(type) && (
              <Flex gap={12} align="flex-end">
                <Form.Item label={t('channels.secret')} name="secret" extra={t('channels.secretHelp')} style={{ flex: 1 }}>
                  <Input.Password placeholder={editing && channel.has_secret ? t('channels.secretKeep') : ''} autoComplete="new-password" />
                </Form.Item>
                {editing && channel.has_secret && (
                  <Form.Item name="clear_secret" valuePropName="checked">
                    <Checkbox>{t('channels.clearSecret')}</Checkbox>
                  </Form.Item>
                )}
              </Flex>
            )}
          </>
        ) : (
          <>
            <Flex gap={12}>
              <Form.Item label={t('channels.smtpHost')} name={['email', 'smtp_host']} style={{ flex: 1 }}>
                <Input />
              </Form.Item>
              <Form.Item label={t('channels.smtpPort')} name={['email', 'smtp_port']}>
                <InputNumber min={1} max={65535} precision={0} style={{ width: 100 }} />
              </Form.Item>
              <Form.Item label={t('channels.smtpSecure')} name={['email', 'smtp_secure']} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Flex>
            <Flex gap={12}>
              <Form.Item label={t('channels.smtpUser')} name={['email', 'smtp_user']} style={{ flex: 1 }}>
                <Input autoComplete="off" />
              </Form.Item>
              <Form.Item label={t('channels.smtpPassword')} name={['email', 'smtp_password']} style={{ flex: 1 }}>
                <Input.Password placeholder={channel?.email?.has_password ? t('channels.passwordKeep') : ''} autoComplete="new-password" />
              </Form.Item>
            </Flex>
            <Form.Item label={t('channels.from')} name={['email', 'from']}>
              <Input />
            </Form.Item>
            <Form.Item label={t('channels.to')} name={['email', 'to']} extra={t('channels.toHelp')}>
              <Select mode="tags" open={false} suffixIcon={null} />
            </Form.Item>
          </>
        )}
        <Flex gap={16} wrap>
          <Form.Item label={t('channels.enabled')} name="enabled" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label={t('channels.systemAlerts')} name="system_alerts" valuePropName="checked" tooltip={t('channels.systemAlertsHelp')}>
            <Switch />
          </Form.Item>
          <Form.Item label={t('channels.lang')} name="lang">
            <Select style={{ width: 120 }} options={(['zh', 'en'] as const).map((l) => ({ value: l, label: t(`channels.langs.${l}`) }))} />
          </Form.Item>
          <Form.Item label={t('channels.rateLimit')} name="rate_limit_per_minute">
            <InputNumber min={1} max={120} precision={0} style={{ width: 100 }} />
          </Form.Item>
        </Flex>
        {issues.length > 0 && <Alert type="error" showIcon title={issues.join('；')} data-testid="channel-issues" />}
      </Form>
    </Modal>
  );
}

/** A test message's delivery: sent or not, the HTTP status and what the platform said. */
function TestResult({ result, onClose }: { result: { channel: NotificationChannel; delivery: NotificationDelivery } | null; onClose: () => void }) {
  const { t } = useTranslation('rules');
  const d = result?.delivery;
  return (
    <Modal open={result !== null} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} title={result ? t('channels.testTitle', { name: result.channel.name }) : ''} destroyOnHidden>
      {d && (
        <Flex vertical gap={12} data-testid="test-result">
          <Alert type={d.status === 'sent' ? 'success' : d.status === 'failed' ? 'error' : 'warning'} showIcon title={t(d.status === 'sent' ? 'channels.testSent' : d.status === 'failed' ? 'channels.testFailed' : 'channels.testPending')} />
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('channels.httpStatus')}>{d.http_status ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('channels.attempts')}>{d.attempts}</Descriptions.Item>
            {d.error && <Descriptions.Item label={t('channels.error')}>{d.error}</Descriptions.Item>}
            {d.response && (
              <Descriptions.Item label={t('channels.response')}>
                <Typography.Text code style={{ wordBreak: 'break-all' }}>
                  {d.response}
                </Typography.Text>
              </Descriptions.Item>
            )}
          </Descriptions>
        </Flex>
      )}
    </Modal>
  );
}

/** 通知渠道: webhooks of Feishu, DingTalk, WeCom, Slack and e-mail; send a test; recent deliveries. */
export function ChannelsTab() {
  const { t } = useTranslation('rules');
  const { modal, message } = App.useApp();
  const list = useListQuery(channelsQuerySchema, { filterKeys: [] });
  const { view: _v, ...body } = list.query;
  const channels = useChannels(body);
  const deliveries = useDeliveries({ page: 1, page_size: 20 });
  const remove = useDeleteChannel();
  const test = useTestChannel();
  const save = useSaveChannel();
  const [editing, setEditing] = useState<{ channel: NotificationChannel | null } | null>(null);
  const [testResult, setTestResult] = useState<{ channel: NotificationChannel; delivery: NotificationDelivery } | null>(null);

  const sendTest = async (c: NotificationChannel) => setTestResult({ channel: c, delivery: await test.mutateAsync(c.id) });
  // Secrets are left out: the server keeps the stored ones.
  const setEnabled = (c: NotificationChannel, enabled: boolean) => {
    const e = c.email;
    save.mutate({ id: c.id, name: c.name, type: c.type, enabled, system_alerts: c.system_alerts, lang: c.lang, rate_limit_per_minute: c.rate_limit_per_minute, ...(e && { email: { smtp_host: e.smtp_host, smtp_port: e.smtp_port, smtp_secure: e.smtp_secure, smtp_user: e.smtp_user, from: e.from, to: e.to } }) });
  };

  const columns: ListColumn<NotificationChannel>[] = [
    { key: 'name', title: t('channels.columns.name'), width: 160, fixed: 'left', render: (_, c) => <Typography.Text strong>{c.name}</Typography.Text> },
    { key: 'type', title: t('channels.columns.type'), width: 100, render: (_, c) => <Tag>{t(`channels.type.${c.type}`)}</Tag> },
    { key: 'target', title: t('channels.columns.target'), width: 240, render: (_, c) => <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>{c.webhook_url_masked ?? c.email?.to.join(', ') ?? ''}</Typography.Text> },
    { key: 'enabled', title: t('channels.columns.enabled'), width: 80, render: (_, c) => <Switch size="small" checked={c.enabled} aria-label={`${t('channels.enabled')} ${c.name}`} onChange={(on) => setEnabled(c, on)} /> },
    { key: 'system_alerts', title: t('channels.columns.systemAlerts'), width: 100, render: (_, c) => (c.system_alerts ? <Tag color="purple">✓</Tag> : '—') },
    {
      key: 'last_delivery',
      title: t('channels.columns.lastDelivery'),
      width: 170,
      render: (_, c) =>
        c.last_delivery ? (
          <Flex vertical gap={2}>
            <span>
              <DeliveryStatus d={c.last_delivery} /> {formatDateTime(c.last_delivery.at)}
            </span>
            {c.last_delivery.error && <Typography.Text type="danger" style={{ fontSize: 12 }} ellipsis={{ tooltip: c.last_delivery.error }}>{c.last_delivery.error}</Typography.Text>}
          </Flex>
        ) : (
          '—'
        ),
    },
    { key: 'rules', title: t('channels.columns.rules'), width: 70, align: 'right', render: (_, c) => c.rules },
    {
      key: 'actions',
      title: t('channels.columns.actions'),
      width: 200,
      fixed: 'right',
      render: (_, c) => (
        <Space size={0}>
          <Button type="link" size="small" aria-label={`${t('channels.edit')} ${c.name}`} onClick={() => setEditing({ channel: c })}>
            {t('channels.edit')}
          </Button>
          <Button type="link" size="small" icon={<SendOutlined />} aria-label={`${t('channels.test')} ${c.name}`} loading={test.isPending && test.variables === c.id} onClick={() => void sendTest(c)}>
            {t('channels.test')}
          </Button>
          <Button
            type="link"
            size="small"
            danger
            aria-label={`${t('channels.delete')} ${c.name}`}
            onClick={() =>
              confirmAction(modal, {
                title: t('channels.confirmDelete', { name: c.name }),
                content: t('channels.confirmDeleteBody'),
                okText: t('channels.delete'),
                danger: true,
                action: async () => {
                  await remove.mutateAsync(c.id);
                  message.success(t('channels.deleted'));
                },
              })
            }
          >
            {t('channels.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  const deliveryColumns: ListColumn<NotificationDelivery>[] = [
    { key: 'created_at', title: t('channels.deliveryColumns.time'), width: 140, render: (_, d) => formatDateTime(d.created_at) },
    { key: 'channel', title: t('channels.deliveryColumns.channel'), width: 140, render: (_, d) => d.channel.name },
    { key: 'kind', title: t('channels.deliveryColumns.kind'), width: 110, render: (_, d) => t(`channels.kind.${d.kind}`) },
    { key: 'title', title: t('channels.deliveryColumns.title'), width: 240, render: (_, d) => <Typography.Text ellipsis={{ tooltip: d.title }}>{d.title}</Typography.Text> },
    { key: 'status', title: t('channels.deliveryColumns.status'), width: 90, render: (_, d) => <DeliveryStatus d={d} /> },
    {
      key: 'result',
      title: t('channels.deliveryColumns.result'),
      width: 260,
      render: (_, d) => (
        <Flex vertical gap={2}>
          {d.http_status !== null && <Typography.Text style={{ fontSize: 12 }}>HTTP {d.http_status}</Typography.Text>}
          {d.error && <Typography.Text type="danger" style={{ fontSize: 12 }}>{d.error}</Typography.Text>}
          {d.duplicates > 0 && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('channels.duplicates', { count: d.duplicates })}</Typography.Text>}
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex justify="end">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ channel: null })}>
          {t('channels.new')}
        </Button>
      </Flex>
      <ListTable<NotificationChannel, NonNullable<typeof channels.data>> list={list} result={channels} rowKey="id" columns={columns} empty={{ text: t('channels.empty') }} />
      <Card size="small" title={t('channels.deliveries')}>
        <ListTable<NotificationDelivery, NonNullable<typeof deliveries.data>> result={deliveries} rowKey="id" columns={deliveryColumns} empty={{ text: t('channels.deliveriesEmpty') }} size="small" data-testid="deliveries" />
      </Card>
      <ChannelForm open={editing !== null} channel={editing?.channel ?? null} onClose={() => setEditing(null)} />
      <TestResult result={testResult} onClose={() => setTestResult(null)} />
    </Flex>
  );
}
