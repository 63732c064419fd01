import { NAME_TOKENS, NAMING_TEMPLATE_MAX, type NameToken } from '@ads/contracts';
import { Button, Flex, Input, Typography, type InputRef } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { buildName } from './draft';

interface Props {
  value?: string;
  onChange?: (v: string) => void;
  /** Tokens offered as buttons (the platform's title token and the rest). */
  tokens: readonly NameToken[];
  /** Token values of the first object, for the live example. */
  example: Partial<Record<NameToken, string | null | undefined>>;
  label: string;
  id?: string;
}

/** A naming template: the text, a button per token inserting it at the cursor, and the first name it builds. */
export function NamingField({ value = '', onChange, tokens, example, label, id }: Props) {
  const { t } = useTranslation('publish');
  const ref = useRef<InputRef>(null);
  const insert = (token: string) => {
    const el = ref.current?.input;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const text = `{${token}}`;
    onChange?.(value.slice(0, start) + text + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + text.length, start + text.length);
    });
  };
  const name = buildName(value, example);
  return (
    <Flex vertical gap={6}>
      <Input id={id} ref={ref} value={value} maxLength={NAMING_TEMPLATE_MAX} onChange={(e) => onChange?.(e.target.value)} aria-label={label} />
      <Flex gap={4} wrap role="group" aria-label={t('settings.naming.tokens', { field: label })}>
        {tokens.map((token) => (
          <Button key={token} size="small" onClick={() => insert(token)} aria-label={t('settings.naming.insert', { token: t(`settings.naming.token.${token}`) })}>
            {`{${token}}`} {t(`settings.naming.token.${token}`)}
          </Button>
        ))}
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="naming-example">
        {t('settings.naming.example')}: <Typography.Text code>{name || '-'}</Typography.Text>
      </Typography.Text>
    </Flex>
  );
}

export const TOKENS_DJ: readonly NameToken[] = NAME_TOKENS.filter((tk) => tk !== 'product');
export const TOKENS_EC: readonly NameToken[] = NAME_TOKENS.filter((tk) => tk !== 'drama');
