import zlib from 'node:zlib';

/**
 * Hostile spreadsheets for the import tests: a real .xlsx (a zip of the parts Excel writes) whose
 * worksheet inflates to hundreds of megabytes from a few hundred kilobytes. The deflate stream is
 * made of one compressed block of filler repeated (each copy flushed to a byte boundary with its
 * own dictionary, so copies can simply be concatenated), which builds it in milliseconds.
 */

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

/** `<c>` cells of inline strings: one row of a sheet. */
export const inlineRow = (cells: string[], r?: number) =>
  `<row${r ? ` r="${r}"` : ''}>${cells.map((c) => `<c t="inlineStr"><is><t>${c}</t></is></c>`).join('')}</row>`;

interface Part {
  name: string;
  /** Raw deflate data. */
  data: Buffer;
  /** What the zip says the part inflates to. */
  declaredSize: number;
}

const deflate = (text: string) => zlib.deflateRawSync(Buffer.from(text), { level: 9 });

/** A zip (stored central directory, deflated parts); CRCs are zero, which readers that stream do not check. */
function zip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, p.data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(0, 16);
    entry.writeUInt32LE(p.data.length, 20);
    entry.writeUInt32LE(p.declaredSize, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += local.length + name.length + p.data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

export interface BombOptions {
  /** XML before the filler, inside <sheetData> (e.g. a header row). */
  head?: string;
  /** What is repeated: spaces by default, or rows for a bomb of rows. */
  filler?: string;
  /** Bytes the filler inflates to in all (rounded to whole copies of a 1 MiB block). */
  inflatedBytes: number;
  /** The size the zip declares for the sheet: the truth by default, or a lie (a small number). */
  declaredSize?: number;
}

/** An .xlsx whose one worksheet inflates to about `inflatedBytes`. Answers the file and the sheet's real size. */
export function xlsxBomb({ head = '', filler = ' ', inflatedBytes, declaredSize }: BombOptions): { file: Buffer; sheetBytes: number } {
  const blockText = filler.repeat(Math.max(1, Math.floor((1024 * 1024) / filler.length)));
  const copies = Math.max(1, Math.round(inflatedBytes / blockText.length));
  const start = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${head}`;
  const end = '</sheetData></worksheet>';
  const flushed = (text: string) => zlib.deflateRawSync(Buffer.from(text), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const block = flushed(blockText);
  const sheet = Buffer.concat([flushed(start), ...Array.from({ length: copies }, () => block), deflate(end)]);
  const sheetBytes = Buffer.byteLength(start) + copies * Buffer.byteLength(blockText) + Buffer.byteLength(end);
  const part = (name: string, text: string): Part => ({ name, data: deflate(text), declaredSize: Buffer.byteLength(text) });
  const file = zip([
    part('[Content_Types].xml', CONTENT_TYPES),
    part('_rels/.rels', ROOT_RELS),
    part('xl/workbook.xml', WORKBOOK),
    part('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize: declaredSize ?? Math.min(sheetBytes, 0xffffffff) },
  ]);
  return { file, sheetBytes };
}
