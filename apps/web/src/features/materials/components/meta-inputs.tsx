import { MATERIAL_LANGUAGES, type Platform } from '@ads/contracts';
import { Select } from 'antd';
import { useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useSimpleUsers } from '@/lib/lookups/use-simple-users';
import { labelOr, useRemoteSearch } from '@/lib/use-remote-search';
import { useDramaOptions, useProductOptions } from '@/lib/lookups/use-catalog-options';
import { languageName } from './media-format';

interface CatalogPickerProps {
  /** dj: a drama; ec: a product. */
  platform: Platform;
  value?: number | null;
  onChange?: (id: number | null) => void;
  /** The chosen entry's name, for callers that show it elsewhere. */
  onPicked?: (name: string | null) => void;
  /** Name of the current value, shown before the list loads or when a search hides it. */
  currentLabel?: string | null;
  /** False when the viewer may not list the catalog (/auth/site): only the current value shows. */
  enabled?: boolean;
  placeholder?: string;
  id?: string;
  style?: CSSProperties;
  allowClear?: boolean;
}

/** A drama (短剧) or product (电商), searched on the server by name. */
export function CatalogPicker({ platform, value, onChange, onPicked, currentLabel, enabled = true, placeholder, id, style, allowClear = true }: CatalogPickerProps) {
  const { t } = useTranslation('materials');
  const search = useRemoteSearch();
  const dramas = useDramaOptions(search.term, { enabled: enabled && platform === 'dj' });
  const products = useProductOptions(search.term, { enabled: enabled && platform === 'ec' });
  const source = platform === 'dj' ? dramas : products;
  const options = useMemo(() => (source.data ?? []).map((o) => ({ value: o.id, label: o.name, site: o.site })), [source.data]);

  return (
    <Select<number, (typeof options)[number]>
      id={id}
      style={style}
      value={value ?? undefined}
      disabled={!enabled}
      onChange={(v, option) => {
        onChange?.(v ?? null);
        onPicked?.([option].flat()[0]?.label ?? null);
      }}
      allowClear={allowClear}
      placeholder={enabled ? (placeholder ?? t(platform === 'dj' ? 'placeholders.drama' : 'placeholders.product')) : t('placeholders.noCatalogAccess')}
      labelRender={labelOr(() => currentLabel)}
      optionRender={(o) => (
        <span>
          {o.data.label}
          {o.data.site && <span style={{ opacity: 0.55, marginInlineStart: 6, fontSize: 12 }}>{o.data.site}</span>}
        </span>
      )}
      popupMatchSelectWidth={false}
      {...search.selectProps(source, options)}
    />
  );
}

const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

interface LanguageSelectProps {
  value?: string | null;
  onChange?: (code: string | null) => void;
  /** Languages already used in the library, offered besides the usual ones. */
  extra?: readonly string[];
  placeholder?: string;
  id?: string;
  style?: CSSProperties;
}

/** A language code from the usual list, or any other code typed in (the list is a suggestion). */
export function LanguageSelect({ value, onChange, extra = [], placeholder, id, style }: LanguageSelectProps) {
  const [search, setSearch] = useState('');
  const options = useMemo(() => {
    const codes = [...new Set([...MATERIAL_LANGUAGES, ...extra, ...(value ? [value] : [])])];
    const typed = search.trim();
    if (LANGUAGE_CODE.test(typed) && !codes.includes(typed)) codes.unshift(typed);
    return codes.map((c) => ({ value: c, label: languageName(c) }));
  }, [extra, value, search]);
  return (
    <Select<string>
      id={id}
      style={style}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      allowClear
      showSearch={{ optionFilterProp: 'label', onSearch: setSearch, searchValue: search }}
      placeholder={placeholder}
      options={options}
      popupMatchSelectWidth={false}
      onOpenChange={(open) => !open && setSearch('')}
    />
  );
}

interface TagsSelectProps {
  value?: string[];
  onChange?: (tags: string[]) => void;
  /** Tags in use, offered first with how many materials carry them. */
  suggestions?: readonly { tag: string; count: number }[];
  placeholder?: string;
  id?: string;
  style?: CSSProperties;
  /** Only choose from the suggestions (filters), no new tags. */
  chooseOnly?: boolean;
  maxCount?: number;
}

/** Tags: chosen from those in use or typed (Enter adds), trimmed, without duplicates. */
export function TagsSelect({ value, onChange, suggestions = [], placeholder, id, style, chooseOnly, maxCount = 30 }: TagsSelectProps) {
  return (
    <Select<string[]>
      id={id}
      style={style}
      mode={chooseOnly ? 'multiple' : 'tags'}
      value={value ?? []}
      maxCount={maxCount}
      onChange={(tags) => onChange?.([...new Set(tags.map((x) => x.trim()).filter((x) => x && x.length <= 32))])}
      allowClear
      tokenSeparators={[',', '，']}
      placeholder={placeholder}
      options={suggestions.map((s) => ({ value: s.tag, label: `${s.tag} (${s.count})` }))}
      showSearch={{ optionFilterProp: 'value' }}
      labelRender={(o) => String(o.value)}
      popupMatchSelectWidth={false}
    />
  );
}

interface EditorPickerProps {
  value?: number | null;
  onChange?: (id: number | null) => void;
  /** The chosen user's name, for callers that show it elsewhere. */
  onPicked?: (name: string | null) => void;
  currentLabel?: string | null;
  placeholder?: string;
  id?: string;
  style?: CSSProperties;
}

/** The editor (剪辑师): anyone who works on materials, searched on the server by name or account. */
export function EditorPicker({ value, onChange, onPicked, currentLabel, placeholder, id, style }: EditorPickerProps) {
  const search = useRemoteSearch();
  const users = useSimpleUsers({ purpose: 'editor', ...(search.term && { keyword: search.term }) });
  const options = useMemo(() => (users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.account})`, name: u.name })), [users.data]);
  return (
    <Select<number, (typeof options)[number]>
      id={id}
      style={style}
      value={value ?? undefined}
      onChange={(v, option) => {
        onChange?.(v ?? null);
        onPicked?.([option].flat()[0]?.name ?? null);
      }}
      allowClear
      placeholder={placeholder}
      labelRender={labelOr(() => currentLabel)}
      popupMatchSelectWidth={false}
      {...search.selectProps(users, options)}
    />
  );
}
