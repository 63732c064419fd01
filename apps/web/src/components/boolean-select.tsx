import { Select } from 'antd';
import type { CSSProperties } from 'react';

interface Props {
  value?: boolean;
  onChange?: (value: boolean | undefined) => void;
  trueLabel: string;
  falseLabel: string;
  placeholder?: string;
  style?: CSSProperties;
  id?: string;
}

/** A yes / no / either choice for filters (antd option values cannot be booleans). */
export function BooleanSelect({ value, onChange, trueLabel, falseLabel, placeholder, style, id }: Props) {
  return (
    <Select<'true' | 'false'>
      id={id}
      allowClear
      placeholder={placeholder}
      style={style}
      value={value === undefined ? undefined : value ? 'true' : 'false'}
      onChange={(v) => onChange?.(v === undefined ? undefined : v === 'true')}
      options={[
        { value: 'true', label: trueLabel },
        { value: 'false', label: falseLabel },
      ]}
    />
  );
}
