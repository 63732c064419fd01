/**
 * Bounds and patterns of the contracts' text fields, without zod: the schemas check with them and
 * the web's forms say the same thing before anything is sent.
 */

/** Lower-case MD5 hex (passwords as SPEC.md §5 sends them, file hashes). */
export const MD5_HEX_PATTERN = /^[0-9a-f]{32}$/;

/** Login account names (accountNameSchema), on trimmed text. */
export const ACCOUNT_PATTERN = /^[A-Za-z0-9_.@-]+$/;
export const ACCOUNT_MIN = 2;
export const ACCOUNT_MAX = 32;
/** Names of people, departments and roles. */
export const NAME_MAX = 32;
/** Every remark field. */
export const REMARK_MAX = 200;

/** Sites: a display name, a bare domain and an https link template. */
export const SITE_NAME_MAX = 64;
export const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const LINK_TEMPLATE_PATTERN = /^https:\/\/\S+$/;
export const LINK_TEMPLATE_MIN = 8;
export const LINK_TEMPLATE_MAX = 1000;

/** Catalog imports take these files. */
export const CATALOG_FILE_PATTERN = /\.(csv|xlsx)$/i;

/** A column of a catalog file (import and export alike): its key, Chinese header and other accepted headers. */
export interface CatalogColumn {
  key: string;
  zh: string;
  /** Other spellings people use in headers. */
  aliases?: string[];
  required: boolean;
  /** A link: an xlsx hyperlink cell gives its target rather than its display text. */
  isLink?: boolean;
}

export const DRAMA_COLUMNS: readonly CatalogColumn[] = [
  { key: 'external_id', zh: '剧集ID', aliases: ['id', 'drama_id', '剧集编号'], required: true },
  { key: 'name', zh: '剧名', aliases: ['剧集名', '剧集名称', '名称'], required: true },
  { key: 'language', zh: '语言', aliases: ['lang'], required: true },
  { key: 'episode_count', zh: '集数', aliases: ['episodes', '总集数'], required: true },
  { key: 'cover_url', zh: '封面', aliases: ['cover', '封面链接'], required: false, isLink: true },
  { key: 'tags', zh: '标签', required: false },
  { key: 'test_status', zh: '测试状态', aliases: ['status', '状态'], required: false },
];

export const PRODUCT_COLUMNS: readonly CatalogColumn[] = [
  { key: 'external_id', zh: '商品ID', aliases: ['id', 'product_id', 'sku', '商品编号'], required: true },
  { key: 'name', zh: '商品名', aliases: ['商品名称', '名称'], required: true },
  { key: 'url', zh: '链接', aliases: ['link', '商品链接'], required: true, isLink: true },
  { key: 'price', zh: '价格', required: true },
  { key: 'currency', zh: '币种', aliases: ['货币'], required: true },
  { key: 'cover_url', zh: '封面', aliases: ['cover', '封面链接'], required: false, isLink: true },
  { key: 'tags', zh: '标签', required: false },
];

/** Catalog entries (dramas, products): the site's own id, a name, and tags. */
export const CATALOG_EXTERNAL_ID_MAX = 64;
export const CATALOG_NAME_MAX = 128;
export const CATALOG_TAGS_MAX = 30;
export const CATALOG_TAG_MAX = 32;
