import { createHash } from 'node:crypto';

/**
 * Covers of the demo dramas, drawn here and served by the app itself (GET /demo/covers/<id>.svg),
 * so a demo shows pictures without reaching any outside host. A 3:4 poster: a gradient picked
 * from the id, the title and the language.
 */

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The title broken into lines that fit the poster (CJK by characters, other scripts by words). */
function lines(title: string, perLine: number): string[] {
  const cjk = /[\u3040-\u30ff\u4e00-\u9fff]/.test(title);
  const out: string[] = [];
  if (cjk) {
    for (let i = 0; i < title.length; i += perLine) out.push(title.slice(i, i + perLine));
  } else {
    let line = '';
    for (const word of title.split(/\s+/)) {
      if (line && (line + ' ' + word).length > perLine * 2) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) out.push(line);
  }
  return out.slice(0, 4);
}

export function demoCoverSvg(id: string, title: string, language: string): string {
  const h = createHash('sha256').update(id).digest();
  const hue = Math.round((h[0]! / 255) * 360);
  const hue2 = (hue + 40 + Math.round((h[1]! / 255) * 60)) % 360;
  const text = lines(title, 6)
    .map((l, i) => `<text x="150" y="${190 + i * 40}" text-anchor="middle" font-size="30" font-weight="700" fill="#fff">${escapeXml(l)}</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400" viewBox="0 0 300 400" role="img" aria-label="${escapeXml(title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${hue2},70%,25%)"/></linearGradient></defs>
<rect width="300" height="400" fill="url(#g)"/>
<circle cx="240" cy="70" r="90" fill="#fff" fill-opacity="0.08"/>
<g font-family="'PingFang SC','Microsoft YaHei','WenQuanYi Micro Hei','Noto Sans CJK SC',sans-serif">${text}
<text x="150" y="370" text-anchor="middle" font-size="16" fill="#fff" fill-opacity="0.8">${escapeXml(id)} · ${escapeXml(language.toUpperCase())}</text></g>
</svg>`;
}

/** Where a demo drama's cover is served, under the app's public address. */
export const demoCoverUrl = (publicUrl: string, id: string) => `${publicUrl}/demo/covers/${encodeURIComponent(id)}.svg`;
