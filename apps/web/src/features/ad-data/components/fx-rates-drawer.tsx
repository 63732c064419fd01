import { App, Button, DatePicker, Drawer, Flex, Form, Input, InputNumber, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { useSaveFxRate } from '../api/use-ad-data-mutations';
import { useFxRates, type FxRate } from '../api/use-ad-queries';

interface FormValues {
  currency: string;
  day: Dayjs;
  units_per_usd: number;
}

/**
 * 汇率 (managers, from 广告数据): the daily rate per currency that turns account-currency spend
 * into USD. A day without a rate uses the last earlier one; saving recomputes the USD figures of
 * the days it affects.
 */
export function FxRatesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('adData');
  const { message } = App.useApp();
  const [currency, setCurrency] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const rates = useFxRates(currency, page, { enabled: open });
  const save = useSaveFxRate();
  const [form] = Form.useForm<FormValues>();

  const submit = async () => {
    const v = await form.validateFields();
    try {
      const r = await save.mutateAsync({ currency: v.currency.toUpperCase(), day: v.day.format('YYYY-MM-DD'), units_per_usd: v.units_per_usd });
      message.success(t('fx.saved', { count: r.updated_rows }));
      form.resetFields(['units_per_usd']);
    } catch {
      // Said by the request layer.
    }
  };

  const focusReturn = useDrawerFocusReturn(open);
  return (
    <Drawer open={open} onClose={onClose} size={640} title={t('fx.title')} destroyOnHidden {...focusReturn}>
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">{t('fx.help')}</Typography.Text>
        <Form form={form} layout="inline" initialValues={{ day: dayjs() }} aria-label={t('fx.title')} style={{ rowGap: 8 }}>
          <Form.Item name="currency" label={t('fx.currency')} rules={[{ required: true, pattern: /^[A-Za-z]{3}$/, message: t('fx.currencyInvalid') }]}>
            <Input maxLength={3} style={{ width: 80, textTransform: 'uppercase' }} />
          </Form.Item>
          <Form.Item name="day" label={t('fx.day')} rules={[{ required: true }]}>
            <DatePicker allowClear={false} />
          </Form.Item>
          <Form.Item name="units_per_usd" label={t('fx.rate')} rules={[{ required: true, message: t('fx.rateRequired') }]}>
            <InputNumber min={0.000001} max={1e7} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" loading={save.isPending} onClick={() => void submit()}>
              {t('fx.save')}
            </Button>
          </Form.Item>
        </Form>
        <Input.Search allowClear placeholder={t('fx.filter')} style={{ width: 200 }} onSearch={(v) => { setCurrency(v.trim().toUpperCase() || undefined); setPage(1); }} />
        <Table<FxRate>
          size="small"
          rowKey={(r) => `${r.currency}-${r.day}`}
          loading={rates.isFetching}
          dataSource={rates.data?.list}
          pagination={{ current: page, pageSize: 10, total: rates.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          columns={[
            { key: 'currency', title: t('fx.currency'), dataIndex: 'currency', width: 80 },
            { key: 'day', title: t('fx.day'), dataIndex: 'day', width: 110 },
            { key: 'rate', title: t('fx.rate'), align: 'right', render: (_, r) => r.units_per_usd.toLocaleString(undefined, { maximumFractionDigits: 6 }) },
            { key: 'by', title: t('fx.updatedBy'), render: (_, r) => (r.updated_by ? `${r.updated_by.name} · ${formatDateTime(r.updated_at)}` : t('fx.seeded')) },
          ]}
        />
      </Flex>
    </Drawer>
  );
}
