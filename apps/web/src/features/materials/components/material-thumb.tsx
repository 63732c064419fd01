import { FileImageOutlined, PlayCircleFilled, VideoCameraOutlined } from '@ant-design/icons';
import type { Material } from '@ads/contracts';
import { Flex, theme } from 'antd';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { formatDuration } from './media-format';

/** How long the pointer rests on a video before its silent preview plays. */
const HOVER_PREVIEW_MS = 450;

interface Props {
  material: Material;
  /** Fixed size (table rows); without it the box fills its width at `aspectRatio`. */
  width?: number;
  height?: number;
  aspectRatio?: string;
  /** Play the video muted while hovered (grid cards). */
  hoverPreview?: boolean;
  /** Show the duration badge. */
  badge?: boolean;
  style?: CSSProperties;
}

/**
 * A material's thumbnail, letterboxed so nothing of the frame is cut off, with its duration;
 * a placeholder when there is none (an image shows itself).
 */
export function MaterialThumb({ material, width, height, aspectRatio = '4 / 5', hoverPreview, badge = true, style }: Props) {
  const { token } = theme.useToken();
  const [failed, setFailed] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const src = material.thumbnail_url ?? (material.kind === 'image' ? material.file_url : null);
  const isVideo = material.kind === 'video';
  const small = (width ?? 200) < 100;
  const box: CSSProperties = {
    position: 'relative',
    width: width ?? '100%',
    height,
    aspectRatio: width ? undefined : aspectRatio,
    background: token.colorFillTertiary,
    borderRadius: small ? token.borderRadiusSM : 0,
    overflow: 'hidden',
    flexShrink: 0,
    ...style,
  };
  const fill: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain' };

  const start = () => {
    if (!hoverPreview || !isVideo) return;
    timer.current = setTimeout(() => setPreviewing(true), HOVER_PREVIEW_MS);
  };
  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    setPreviewing(false);
  };

  return (
    <div style={box} onMouseEnter={start} onMouseLeave={stop}>
      {src && !failed ? (
        <img src={src} alt="" loading="lazy" draggable={false} style={fill} onError={() => setFailed(true)} />
      ) : (
        <Flex align="center" justify="center" style={{ ...fill, color: token.colorTextQuaternary, fontSize: small ? 18 : 36 }}>
          {isVideo ? <VideoCameraOutlined /> : <FileImageOutlined />}
        </Flex>
      )}
      {previewing && <video src={material.file_url} muted autoPlay loop playsInline style={fill} data-testid="hover-preview" />}
      {badge && isVideo && material.duration_s !== null && (
        <span
          style={{
            position: 'absolute',
            right: small ? 2 : 6,
            bottom: small ? 2 : 6,
            padding: small ? '0 3px' : '1px 6px',
            borderRadius: token.borderRadiusSM,
            background: token.colorBgMask,
            color: token.colorTextLightSolid,
            fontSize: small ? 10 : 12,
            lineHeight: small ? '14px' : '18px',
            fontVariantNumeric: 'tabular-nums',
            display: 'inline-flex',
            alignItems: 'center',
            gap: 3,
          }}
        >
          {!small && <PlayCircleFilled style={{ fontSize: 10 }} />}
          {formatDuration(material.duration_s)}
        </span>
      )}
    </div>
  );
}
