import dayjs from 'dayjs';
import i18n from '@/lib/i18n';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in binary units with one decimal from KB up ("12.5 MB", "830 B"). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${UNITS[u]}`;
}

/** A video length as m:ss or h:mm:ss (rounded to the second). */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "720×1280", or '' when unknown. */
export const formatResolution = (w: number | null, h: number | null) => (w && h ? `${w}×${h}` : '');

/** Time left in words ("1 min 20 s"). */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return i18n.t('materials:upload.time.s', { s });
  if (s < 3600) return i18n.t('materials:upload.time.ms', { m: Math.floor(s / 60), s: s % 60 });
  return i18n.t('materials:upload.time.hm', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}

/** A language code with its name in the interface language ("English (en)"); the code alone if unknown. */
export function languageName(code: string | null | undefined): string {
  if (!code) return '';
  try {
    const names = new Intl.DisplayNames([i18n.language === 'en' ? 'en' : 'zh-CN'], { type: 'language' });
    const name = names.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** An instant briefly: "03-01 16:30" this year, "2025-11-02" before. */
export function shortDate(iso: string): string {
  const d = dayjs(iso);
  if (!d.isValid()) return '';
  return d.year() === dayjs().year() ? d.format('MM-DD HH:mm') : d.format('YYYY-MM-DD');
}
