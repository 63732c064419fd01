import { FileImageOutlined, PlayCircleFilled, VideoCameraOutlined } from '@ant-design/icons';
import type { PublishMaterial } from '@ads/contracts';
import { Flex, theme } from 'antd';
import { useState } from 'react';

/** A small letterboxed thumbnail with a placeholder icon when there is no picture. */
export function Thumb({ src, kind, size = 48, width, height }: { src: string | null | undefined; kind: 'video' | 'image'; size?: number; width?: number; height?: number }) {
  const { token } = theme.useToken();
  const [failed, setFailed] = useState(false);
  const w = width ?? size;
  const h = height ?? size;
  return (
    <div style={{ position: 'relative', width: w, height: h, flexShrink: 0, borderRadius: token.borderRadiusSM, overflow: 'hidden', background: token.colorFillTertiary }}>
      {src && !failed ? (
        <img src={src} alt="" loading="lazy" draggable={false} onError={() => setFailed(true)} style={{ width: '100%', height: '100%', objectFit: 'contain' }} />
      ) : (
        <Flex align="center" justify="center" style={{ width: '100%', height: '100%', color: token.colorTextQuaternary, fontSize: Math.min(w, h) / 2.4 }}>
          {kind === 'video' ? <VideoCameraOutlined /> : <FileImageOutlined />}
        </Flex>
      )}
      {kind === 'video' && src && !failed && (
        <PlayCircleFilled style={{ position: 'absolute', right: 3, bottom: 3, fontSize: 12, color: token.colorTextLightSolid, opacity: 0.85 }} />
      )}
    </div>
  );
}

/** A material's thumbnail (an image shows itself). */
export const materialSrc = (m: Pick<PublishMaterial, 'kind' | 'thumbnail_url' | 'file_url'> | undefined) => (m ? (m.thumbnail_url ?? (m.kind === 'image' ? m.file_url : null)) : null);

/** "1:05" for 65 seconds. */
export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return '';
  const total = Math.round(s);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
