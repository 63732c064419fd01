import type { DramaTestStatus } from '@ads/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export const DRAMA_TEST_STATUSES: readonly DramaTestStatus[] = ['untested', 'testing', 'passed', 'failed'];

const COLORS: Record<DramaTestStatus, string | undefined> = { untested: undefined, testing: 'processing', passed: 'success', failed: 'error' };

/** 未测试 / 测试中 / 已通过 / 未通过. */
export function DramaStatusTag({ status }: { status: DramaTestStatus }) {
  const { t } = useTranslation('assets');
  return (
    <Tag color={COLORS[status]} style={{ marginInlineEnd: 0 }}>
      {t(`testStatus.${status}`)}
    </Tag>
  );
}
