import {
  DownOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  KeyOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  MoonOutlined,
  ReloadOutlined,
  SunOutlined,
  TranslationOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Flex, Layout, Space, theme, Tooltip, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { useSession } from '@/stores/session-store';
import { useSettings } from '@/stores/settings-store';
import { ResetPasswordDialog } from './reset-password-dialog';

/** Ends the session on the server (best effort), clears local storage and reloads (SPEC.md §2). */
export async function logout() {
  try {
    await Promise.race([api.session.logout(), new Promise((r) => setTimeout(r, 2000))]);
  } catch {
    /* the local session ends regardless */
  }
  localStorage.clear();
  window.location.reload();
}

function IconButton({ label, icon, onClick, testId }: { label: string; icon: React.ReactNode; onClick: () => void; testId?: string }) {
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} icon={icon} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );
}

export function HeaderBar({ collapsed, onToggle, onRefresh }: { collapsed: boolean; onToggle: () => void; onRefresh: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const user = useSession((s) => s.userInfo);
  const { isDark, toggleDark, locale, setLocale } = useSettings();
  const [isFullscreen, setFullscreen] = useState(Boolean(document.fullscreenElement));
  const [resetOpen, setResetOpen] = useState(false);

  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Built once per language: an open menu is not rebuilt under the pointer when the header re-renders
  // (fullscreen, theme, the user info arriving). Both open on click: a hover menu closes when the
  // pointer crosses the gap to it on a slow machine.
  const languageMenu = useMemo<MenuProps>(
    () => ({
      selectedKeys: [locale],
      items: [
        { key: 'zh-cn', label: '简体中文' },
        { key: 'en', label: 'English' },
      ],
      onClick: ({ key }) => setLocale(key as 'zh-cn' | 'en'),
    }),
    [locale, setLocale],
  );
  const userMenu = useMemo<MenuProps>(
    () => ({
      items: [
        { key: 'reset', icon: <KeyOutlined />, label: t('header.resetPassword') },
        { type: 'divider' },
        { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout'), danger: true },
      ],
      onClick: ({ key }) => (key === 'reset' ? setResetOpen(true) : void logout()),
    }),
    [t],
  );

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };

  return (
    <Layout.Header
      style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, zIndex: 10 }}
    >
      <Flex align="center" justify="space-between" style={{ height: '100%' }}>
        <Space size={4}>
          <IconButton
            label={collapsed ? t('header.expand') : t('header.collapse')}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={onToggle}
            testId="toggle-sidebar"
          />
          <IconButton
            label={isFullscreen ? t('header.exitFullscreen') : t('header.fullscreen')}
            icon={isFullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            onClick={toggleFullscreen}
          />
          <IconButton label={t('header.refresh')} icon={<ReloadOutlined />} onClick={onRefresh} testId="refresh" />
        </Space>
        <Space size={4}>
          <IconButton label={isDark ? t('header.toLight') : t('header.toDark')} icon={isDark ? <SunOutlined /> : <MoonOutlined />} onClick={toggleDark} testId="toggle-theme" />
          <Dropdown menu={languageMenu} trigger={['click']}>
            <Button type="text" aria-label={t('header.language')} icon={<TranslationOutlined />} data-testid="language">
              {locale === 'en' ? 'EN' : '中'}
            </Button>
          </Dropdown>
          <Dropdown menu={userMenu} trigger={['click']}>
            <Button type="text" aria-label={t('header.userMenu')} data-testid="user-menu">
              <UserOutlined />
              <span>{user?.name || '-'}</span>
              <DownOutlined style={{ fontSize: 10 }} />
            </Button>
          </Dropdown>
        </Space>
      </Flex>
      <ResetPasswordDialog open={resetOpen} onClose={() => setResetOpen(false)} />
    </Layout.Header>
  );
}
