import type { RuleOutcome } from '@ads/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOR: Partial<Record<RuleOutcome, string>> = { acted: 'green', revived: 'green', would_act: 'blue', notified: 'cyan', failed: 'red', kept_off: 'default' };

export function OutcomeTag({ outcome }: { outcome: RuleOutcome }) {
  const { t } = useTranslation('rules');
  return <Tag color={COLOR[outcome] ?? (outcome.startsWith('skipped') ? 'gold' : 'default')}>{t(`outcome.${outcome}`)}</Tag>;
}
