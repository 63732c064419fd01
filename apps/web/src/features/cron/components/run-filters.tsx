import { taskStatusSchema, type CronJob, type TaskStatus } from '@ads/contracts';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterBar } from '@/components/list-kit';
import '@/locales/assets-namespace';

export interface RunFilterValues {
  name?: string;
  status?: TaskStatus;
}

interface Props {
  value: RunFilterValues;
  jobs: readonly CronJob[];
  onChange: (next: RunFilterValues) => void;
  onReset: () => void;
}

/** The run history's filters: by job and by status; each choice applies at once. */
export function RunFilters({ value, jobs, onChange, onReset }: Props) {
  const { t } = useTranslation('cron');
  const { t: ta } = useTranslation('assets');
  const { name } = value;


  const known = jobs.some((j) => j.name === name);
  return (
    <FilterBar<RunFilterValues> value={value} onChange={onChange} onReset={onReset} applyOnChange={['name', 'status']}>
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
    </FilterBar>
  );
}
