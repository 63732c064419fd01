import type { TaskStatus } from '@ads/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import '@/locales/assets-namespace';

const COLORS: Record<TaskStatus, string | undefined> = {
  queued: undefined,
  running: 'processing',
  success: 'success',
  skipped: undefined,
  failed: 'error',
  cancelled: 'warning',
};

/** 排队中 / 进行中 / 成功 / 已跳过 / 失败 / 已取消. */
export function TaskStatusTag({ status }: { status: TaskStatus }) {
  const { t } = useTranslation('assets');
  return (
    <Tag color={COLORS[status]} style={{ marginInlineEnd: 0 }}>
      {t(`taskStatus.${status}`)}
    </Tag>
  );
}
