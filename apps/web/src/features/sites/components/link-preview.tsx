import { LINK_PLACEHOLDERS } from '@ads/contracts';
import { Flex, Tag, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { analyzeTemplate, SAMPLE_VALUES, type LinkPlaceholder } from './link-template';

/**
 * The link a template expands to with sample values, as the user types: filled placeholders
 * marked in the primary colour, unknown ones in the error colour.
 */
export function LinkPreview({ template }: { template: string }) {
  const { t } = useTranslation('assets');
  const { token } = theme.useToken();
  const analysis = analyzeTemplate(template);
  const mark = (bg: string, color: string) => ({ background: bg, color, borderRadius: 3, padding: '0 2px' });
  return (
    <div
      data-testid="link-preview"
      style={{
        padding: '8px 12px',
        borderRadius: token.borderRadius,
        border: `1px dashed ${analysis.unknown.length ? token.colorErrorBorder : token.colorBorder}`,
        background: token.colorFillQuaternary,
        fontFamily: token.fontFamilyCode,
        fontSize: 12,
        wordBreak: 'break-all',
        lineHeight: 1.8,
      }}
    >
      {template.trim() === '' ? (
        <Typography.Text type="secondary">{t('sites.preview.empty')}</Typography.Text>
      ) : (
        analysis.parts.map((p, i) =>
          p.kind === 'text' ? (
            <span key={i}>{p.text}</span>
          ) : p.kind === 'known' ? (
            <Tooltip key={i} title={p.text}>
              <span style={mark(token.colorPrimaryBg, token.colorPrimaryText)} data-placeholder={p.text}>
                {p.value}
              </span>
            </Tooltip>
          ) : (
            <Tooltip key={i} title={t('sites.preview.unknownTip')}>
              <span style={{ ...mark(token.colorErrorBg, token.colorErrorText), textDecoration: 'wavy underline' }} data-unknown={p.text}>
                {p.text}
              </span>
            </Tooltip>
          ),
        )
      )}
    </div>
  );
}

/** The placeholders a template may use, each a chip that inserts it; the sample value on hover. */
export function PlaceholderChips({ onInsert }: { onInsert: (placeholder: LinkPlaceholder) => void }) {
  const { t } = useTranslation('assets');
  return (
    <Flex gap={4} wrap align="center">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('sites.form.insert')}
      </Typography.Text>
      {LINK_PLACEHOLDERS.map((p) => (
        <Tooltip key={p} title={`${t(`sites.placeholders.${p.slice(1, -1) as 'drama_id'}`)} · ${t('sites.preview.sample', { value: SAMPLE_VALUES[p] })}`}>
          <Tag.CheckableTag checked={false} onChange={() => onInsert(p)} style={{ fontFamily: 'monospace', border: '1px dashed', marginInlineEnd: 0 }}>
            {p}
          </Tag.CheckableTag>
        </Tooltip>
      ))}
    </Flex>
  );
}
