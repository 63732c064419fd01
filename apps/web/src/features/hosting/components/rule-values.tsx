import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import type { RuleValue } from '@ads/contracts';
import { Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { valueText, type Lang } from './rule-format';

/** The figures behind a firing: each condition with its threshold, what the object showed, met or not. */
export function RuleValues({ values, lang }: { values: RuleValue[]; lang: Lang }) {
  const { t } = useTranslation('rules');
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={2}>
      {values.map((v, i) => (
        <Typography.Text key={i} style={{ fontSize: 12 }}>
          {v.met ? <CheckCircleFilled style={{ color: token.colorSuccess }} aria-label={t('dryRun.met')} /> : <CloseCircleOutlined style={{ color: token.colorTextTertiary }} aria-label={t('dryRun.notMet')} />}{' '}
          {valueText(t, v, lang)}
        </Typography.Text>
      ))}
    </Flex>
  );
}
