import type { AssignMode } from '@ads/contracts';
import { Alert, Flex, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import '@/locales/assets-namespace';

export const ASSIGN_MODES: readonly AssignMode[] = ['add', 'replace', 'remove'];

interface Props {
  value?: AssignMode;
  onChange?: (mode: AssignMode) => void;
  /** What is being assigned, in words ("users", "ad accounts"), for the explanation. */
  what: string;
  /** What it is assigned to ("the 3 selected ad accounts"). */
  target: string;
  id?: string;
}

/**
 * 追加 / 替换 / 移除, with a sentence saying exactly what the chosen mode will do, since a
 * replace clears what is not chosen (form control: value / onChange).
 */
export function AssignModeField({ value = 'add', onChange, what, target, id }: Props) {
  const { t } = useTranslation('assets');
  return (
    <Flex vertical gap={8}>
      <Radio.Group
        id={id}
        optionType="button"
        value={value}
        onChange={(e) => onChange?.(e.target.value as AssignMode)}
        options={ASSIGN_MODES.map((m) => ({ value: m, label: t(`assignMode.${m}`) }))}
      />
      <Alert
        type={value === 'add' ? 'info' : 'warning'}
        showIcon
        title={t(`assignMode.explain.${value}`, { what, target })}
        data-testid="assign-mode-explain"
      />
    </Flex>
  );
}
