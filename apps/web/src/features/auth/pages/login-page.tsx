import { LockOutlined, MoonOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Form, Segmented, theme } from 'antd';
// The two inputs alone: antd's Input compound also brings TextArea, Search and OTP to the login page.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api-client';
import { md5Hex } from '@/lib/md5';
import { useSession } from '@/stores/session-store';
import { useSettings } from '@/stores/settings-store';

interface LoginForm {
  account: string;
  password: string;
}

/** Account and password; the password leaves the browser only as its MD5 hex (SPEC.md §5). */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const setLogin = useSession((s) => s.setLogin);
  const { isDark, toggleDark, locale, setLocale } = useSettings();
  const [loading, setLoading] = useState(false);

  const handleFinish = async (values: LoginForm) => {
    setLoading(true);
    try {
      const result = await api.session.login({ account: values.account.trim(), pwd: md5Hex(values.password) });
      setLogin(result);
      navigate('/', { replace: true });
    } catch {
      // The request layer has shown why.
    } finally {
      setLoading(false);
    }
  };

  return (
    <Flex vertical align="center" justify="center" style={{ minHeight: '100vh', background: token.colorBgLayout, padding: 16 }}>
      <Flex gap={8} style={{ position: 'absolute', top: 16, right: 16 }}>
        <Segmented
          size="small"
          value={locale}
          onChange={(v) => setLocale(v as 'zh-cn' | 'en')}
          options={[
            { label: '中文', value: 'zh-cn' },
            { label: 'EN', value: 'en' },
          ]}
          aria-label="language"
        />
        <Button size="small" type="text" aria-label={isDark ? 'light theme' : 'dark theme'} icon={isDark ? <SunOutlined /> : <MoonOutlined />} onClick={toggleDark} />
      </Flex>
      <Card style={{ width: 380, maxWidth: '100%' }} styles={{ body: { padding: 32 } }}>
        <Flex vertical align="center" gap={4} style={{ marginBottom: 24 }}>
          <img src="/logo.svg" alt="" width={44} height={44} />
          {/* Plain elements with theme tokens: Typography would add ~30 KB to the login page. */}
          <h1 style={{ margin: '8px 0 0', fontSize: token.fontSizeHeading3, fontWeight: 600, color: token.colorText }}>{t('title')}</h1>
          <span style={{ color: token.colorTextSecondary }}>{t('subtitle')}</span>
        </Flex>
        <Form<LoginForm> layout="vertical" size="large" onFinish={handleFinish} requiredMark={false} autoComplete="on">
          <Form.Item name="account" label={t('account')} rules={[{ required: true, whitespace: true, message: t('accountRequired') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus maxLength={64} />
          </Form.Item>
          <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('passwordRequired') }]}>
            <Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={128} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={loading}>
            {t('submit')}
          </Button>
        </Form>
        <p style={{ marginTop: 16, marginBottom: 0, textAlign: 'center', fontSize: 12, color: token.colorTextSecondary }}>{t('forgot')}</p>
      </Card>
    </Flex>
  );
}
