import { SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type Values = Record<string, unknown>;

interface Props<V extends object> {
  /** The applied filters (useListQuery().filters): the form shows them, also after back/forward. */
  value: Partial<V>;
  /** Applies the form's values (useListQuery().setFilters). */
  onChange: (next: Partial<V>) => void;
  /** 重置 (useListQuery().reset). */
  onReset: () => void;
  /** Fields applied as soon as they change (selects, checkboxes); text fields wait for 查询 or Enter. */
  applyOnChange?: readonly (keyof V & string)[];
  /** Trims texts and drops empty values before they reach the URL (a checkbox filter maps false to absent here). */
  normalize?: (values: Partial<V>) => Partial<V>;
  /** The form's initial shape for fields that need one when absent (a checkbox: false). */
  blank?: Partial<V>;
  children: ReactNode;
  /** Extra buttons after 查询 / 重置. */
  extra?: ReactNode;
  /** The form's accessible name (two lists on one screen need two). */
  label?: string;
  /** The form, when the screen watches its fields (Form.useWatch); by default the bar makes its own. */
  form?: FormInstance;
  /** The form's values for the applied filters, when fields differ from URL keys (a date range, one picker for two keys). */
  toForm?: (value: Partial<V>) => Record<string, unknown>;
  /** Called on every change before applying (clear a field that depends on another). */
  onValuesChange?: (changed: Record<string, unknown>, form: FormInstance) => void;
}

const dropBlank = <V extends object>(v: Partial<V>): Partial<V> => {
  const out: Values = {};
  for (const [k, x] of Object.entries(v)) {
    const value = typeof x === 'string' ? x.trim() : x;
    if (value !== undefined && value !== null && value !== '') out[k] = value;
  }
  return out as Partial<V>;
};

/**
 * The filter form above a list: shows the applied filters, applies on 查询 (or Enter, or at once
 * for `applyOnChange` fields), and 重置 clears them all. The URL stays the one source of truth:
 * the form only mirrors it.
 */
export function FilterBar<V extends object>({ value, onChange, onReset, applyOnChange = [], normalize = dropBlank, blank = {}, children, extra, label = 'filters', form: external, toForm, onValuesChange }: Props<V>) {
  const { t } = useTranslation();
  const [own] = Form.useForm();
  const form = external ?? own;
  const key = JSON.stringify(value);
  useEffect(() => {
    // Fields not in the URL are cleared, so the form never shows a filter that is not applied.
    const names = Object.keys(form.getFieldsValue(true) as Values);
    const cleared = Object.fromEntries(names.map((n) => [n, undefined]));
    form.setFieldsValue({ ...cleared, ...blank, ...(toForm ? toForm(value) : value) });
    // `key` stands for value; blank is constant per screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, key]);

  return (
    <Form
      form={form}
      layout="inline"
      onFinish={(v: Partial<V>) => onChange(normalize(v))}
      onValuesChange={(changed: Record<string, unknown>) => {
        onValuesChange?.(changed, form);
        if (Object.keys(changed).some((k) => (applyOnChange as readonly string[]).includes(k))) form.submit();
      }}
      style={{ rowGap: 12 }}
      aria-label={label}
    >
      {children}
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('actions.search')}
        </Button>
      </Form.Item>
      <Form.Item>
        <Button
          icon={<UndoOutlined />}
          onClick={() => {
            form.resetFields();
            onReset();
          }}
        >
          {t('actions.reset')}
        </Button>
      </Form.Item>
      {extra}
    </Form>
  );
}
