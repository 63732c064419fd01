import { createHash } from 'node:crypto';
import type { UploadedFile } from './params.ts';

// A small multipart/form-data reader for uploads (ad images, video files and chunks). The
// body arrives whole (bounded by the server's body limit); files keep only their size, MD5
// and first bytes, which is all the simulator needs.

const HEAD_BYTES = 64 * 1024;

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export function boundaryOf(contentType: string): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  return (m?.[1] ?? m?.[2])?.trim();
}

function headerParam(header: string, name: string): string | undefined {
  const m = new RegExp(`${name}="((?:[^"\\\\]|\\\\.)*)"|${name}=([^;\\s]+)`, 'i').exec(header);
  return m?.[1] ?? m?.[2];
}

export function parseMultipart(body: Buffer, boundary: string): MultipartBody {
  const delimiter = Buffer.from(`--${boundary}`);
  const result: MultipartBody = { fields: {}, files: [] };
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new Error('multipart body without boundary');

  while (pos >= 0) {
    let start = pos + delimiter.length;
    // `--` after the delimiter ends the body.
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break;
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    const headerEnd = body.indexOf('\r\n\r\n', start);
    if (headerEnd < 0) throw new Error('malformed multipart part');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw new Error('unterminated multipart body');
    const headers = body.subarray(start, headerEnd).toString('utf8');
    const content = body.subarray(headerEnd + 4, next);
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = headerParam(disposition, 'name');
    const filename = headerParam(disposition, 'filename');
    if (name !== undefined) {
      if (filename !== undefined) {
        result.files.push({
          field: name,
          filename,
          mimetype: /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream',
          size: content.length,
          md5: createHash('md5').update(content).digest('hex'),
          head: Buffer.from(content.subarray(0, HEAD_BYTES)),
        });
      } else {
        result.fields[name] = content.toString('utf8');
      }
    }
    pos = next + 2;
  }
  return result;
}
