import { RightOutlined } from '@ant-design/icons';
import { Card, Flex, Statistic, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '@/stores/session-store';

export interface Figure {
  label: string;
  value: number;
  /** Draws the eye to figures that need action (expiring or invalid tokens). */
  tone?: 'warning' | 'danger';
}

interface Props {
  title: string;
  icon: ReactNode;
  value: number | undefined;
  figures?: Figure[];
  /** The screen that lists what is counted; linked only when the user may open it. */
  to?: string;
  loading: boolean;
}

/** One count of the landing pages, with its breakdown and a link to the screen that lists it. */
export function FigureCard({ title, icon, value, figures = [], to, loading }: Props) {
  const { token } = theme.useToken();
  const paths = useSession((s) => s.userInfo?.paths);
  const link = to && paths?.includes(to) ? to : undefined;
  const colour = (tone: Figure['tone']) => (tone === 'danger' ? token.colorError : tone === 'warning' ? token.colorWarning : undefined);
  return (
    <Card
      size="small"
      loading={loading}
      title={<Flex gap={8} align="center">{icon}<span>{title}</span></Flex>}
      extra={link ? <Link to={link} aria-label={title}><RightOutlined /></Link> : undefined}
      style={{ height: '100%' }}
      data-testid={`figure-${title}`}
    >
      <Statistic value={value ?? '-'} aria-label={title} />
      {figures.length > 0 && (
        <Flex gap={16} wrap style={{ marginTop: 8 }}>
          {figures.map((f) => (
            <Typography.Text key={f.label} type="secondary" style={{ fontSize: 13 }}>
              {f.label}{' '}
              <span style={{ fontVariantNumeric: 'tabular-nums', fontWeight: 500, color: f.value > 0 ? colour(f.tone) : undefined }}>{f.value}</span>
            </Typography.Text>
          ))}
        </Flex>
      )}
    </Card>
  );
}
