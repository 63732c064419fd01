import { SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * 查询 / 重置 at the end of a list's filter form. 查询 submits the form; 重置 clears its fields and
 * calls `onReset` (which clears the filters of the list).
 */
export function FilterActions({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <>
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
    </>
  );
}
