import type { PublishIssue, PublishPreview } from '@ads/contracts';
import { Alert, Card, DatePicker, Flex, Form, Radio, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { marketZone, wallToInstant, type WizardValues } from './draft';
import { timeZoneOptions } from './options';
import { IssueList, PreviewTotals } from './step-preview';
import { useWizard } from './wizard-context';

const LOCAL_FORMAT = 'YYYY-MM-DDTHH:mm';

/** Step 6: when the created objects start (paused, at once, or at a time in the market's zone), the totals, and submit. */
export function StepSubmit({ preview, refused }: { preview: PublishPreview | undefined; refused: PublishIssue[] }) {
  const { t } = useTranslation('publish');
  const form = Form.useFormInstance<WizardValues>();
  const { accounts, goTo } = useWizard();
  const launch = Form.useWatch('launch', { form, preserve: true }) as WizardValues['launch'] | undefined;
  const countries = (Form.useWatch(['adset', 'countries'], { form, preserve: true }) ?? []) as string[];
  const chosen = (Form.useWatch(['where', 'accounts'], { form, preserve: true }) ?? []) as WizardValues['where']['accounts'];
  const zone = marketZone(countries, accounts.get(chosen[0]?.ad_account_id ?? 0)?.timezone_name);
  const zones = useMemo(() => timeZoneOptions([zone]), [zone]);
  const mode = launch?.mode ?? 'paused';
  const at = mode === 'at' && launch?.local ? wallToInstant(launch.local, launch.zone || zone) : null;

  return (
    <Flex vertical gap={16}>
      <Card size="small" title={t('submit.launch')}>
        <Form.Item name={['launch', 'mode']} style={{ marginBottom: 8 }}>
          <Radio.Group
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={(['paused', 'now', 'at'] as const).map((m) => ({
              value: m,
              label: (
                <span>
                  <Typography.Text strong>{t(`submit.mode.${m}`)}</Typography.Text>
                  <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
                    {t(`submit.modeHelp.${m}`)}
                  </Typography.Text>
                </span>
              ),
            }))}
          />
        </Form.Item>
        {mode === 'at' && (
          <Flex gap={16} wrap style={{ paddingInlineStart: 24 }}>
            <Form.Item
              name={['launch', 'local']}
              label={t('submit.at')}
              getValueProps={(v: string | null | undefined) => ({ value: v ? dayjs(v, LOCAL_FORMAT) : null })}
              normalize={(d: dayjs.Dayjs | null) => (d ? d.format(LOCAL_FORMAT) : null)}
              dependencies={[['launch', 'zone']]}
              rules={[
                { required: true, message: t('submit.atRequired') },
                {
                  validator: async (_, local?: string | null) => {
                    const z = (form.getFieldValue(['launch', 'zone']) as string | null) || zone;
                    const instant = local ? wallToInstant(local, z) : null;
                    if (instant && Date.parse(instant) <= Date.now()) throw new Error(t('settings.inPast'));
                  },
                },
              ]}
            >
              <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name={['launch', 'zone']} label={t('submit.zone')} extra={t('settings.adset.startZoneHelp', { zone })} style={{ width: 280 }}>
              <Select allowClear showSearch options={zones} placeholder={zone} />
            </Form.Item>
            {at && (
              <Typography.Text type="secondary" style={{ alignSelf: 'center' }} data-testid="launch-local">
                {t('submit.atYours', { time: dayjs(at).format('YYYY-MM-DD HH:mm') })}
              </Typography.Text>
            )}
          </Flex>
        )}
      </Card>
      {preview && (
        <Card size="small" title={t('submit.summary')}>
          <PreviewTotals preview={preview} />
        </Card>
      )}
      {preview && preview.issues.some((i) => i.level === 'warning') && <Alert type="warning" showIcon title={t('preview.okWithWarnings', { count: preview.issues.filter((i) => i.level === 'warning').length })} />}
      {refused.length > 0 && (
        <Flex vertical gap={8}>
          <Alert type="error" showIcon title={t('submit.refused')} />
          <IssueList issues={refused} accounts={preview?.accounts ?? []} onGo={goTo} />
        </Flex>
      )}
    </Flex>
  );
}
