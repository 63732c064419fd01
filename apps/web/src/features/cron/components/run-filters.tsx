import { UndoOutlined } from '@ant-design/icons';
import { taskStatusSchema, type CronJob, type TaskStatus } from '@ads/contracts';
import { Button, Form, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import '@/locales/assets-namespace';

export interface RunFilterValues {
  name?: string;
  status?: TaskStatus;
}

interface Props {
  value: RunFilterValues;
  jobs: readonly CronJob[];
  onChange: (next: RunFilterValues) => void;
}

/** The run history's filters: by job and by status; each choice applies at once. */
export function RunFilters({ value, jobs, onChange }: Props) {
  const { t } = useTranslation('cron');
  const { t: ta } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<RunFilterValues>();
  const { name, status } = value;

  // Follow the URL (back/forward, shared links, "runs" of one job).
  useEffect(() => {
    form.setFieldsValue({ name, status });
  }, [form, name, status]);

  const known = jobs.some((j) => j.name === name);
  return (
    <Form<RunFilterValues>
      form={form}
      layout="inline"
      onValuesChange={(_, all) => onChange({ name: all.name ?? undefined, status: all.status ?? undefined })}
      style={{ rowGap: 12 }}
      aria-label="filters"
    >
      <Form.Item name="name" label={t('runs.filters.job')}>
        <Select<string>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('runs.filters.jobPlaceholder')}
          style={{ width: 240 }}
          options={[
            ...jobs.map((j) => ({ value: j.name, label: j.title })),
            // A link to a job that is no longer registered still shows what it filters on.
            ...(name && !known ? [{ value: name, label: name }] : []),
          ]}
        />
      </Form.Item>
      <Form.Item name="status" label={t('runs.filters.status')}>
        <Select<TaskStatus>
          allowClear
          placeholder={t('runs.filters.statusPlaceholder')}
          style={{ width: 150 }}
          options={taskStatusSchema.options.map((s) => ({ value: s, label: ta(`taskStatus.${s}`) }))}
        />
      </Form.Item>
      <Form.Item>
        <Button icon={<UndoOutlined />} disabled={!name && !status} onClick={() => onChange({})}>
          {tc('actions.reset')}
        </Button>
      </Form.Item>
    </Form>
  );
}
