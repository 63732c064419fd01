import {
  AppstoreOutlined,
  BarChartOutlined,
  CloudServerOutlined,
  FileImageOutlined,
  HomeOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
} from '@ant-design/icons';
import { Layout, Menu, theme, Typography, type MenuProps } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '@/stores/session-store';
import { useSettings } from '@/stores/settings-store';
import { buildMenu, openMenuKeys, selectedMenuKey, type MenuNode } from '../menu';

const icons: Record<string, ReactNode> = {
  '/index': <HomeOutlined />,
  '/admin/index': <HomeOutlined />,
  '/advertising': <NotificationOutlined />,
  '/admin/advertising': <NotificationOutlined />,
  '/material': <FileImageOutlined />,
  '/analyse': <BarChartOutlined />,
  '/auth': <SafetyCertificateOutlined />,
  '/sys': <SettingOutlined />,
  '/admin/sys': <SettingOutlined />,
  '/operation': <CloudServerOutlined />,
  '/admin/order': <ShoppingCartOutlined />,
};

/** English titles run longer ("E-commerce materials", "Account authorization"): a wider sider keeps them whole. */
export const SIDER_WIDTH = { zh: 220, en: 256 } as const;
export const SIDER_COLLAPSED_WIDTH = 64;

/** Logo, title (hidden when collapsed) and the permitted menu (SPEC.md §2). */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const userInfo = useSession((s) => s.userInfo);
  const locale = useSettings((s) => s.locale);

  const tree = useMemo(() => buildMenu(userInfo?.is_admin ?? 0, userInfo?.paths ?? []), [userInfo]);
  const items = useMemo<MenuProps['items']>(() => {
    const toItem = (n: MenuNode, depth: number): NonNullable<MenuProps['items']>[number] => ({
      key: n.key,
      label: locale === 'en' ? n.title_en : n.title,
      icon: depth === 0 ? (icons[n.key] ?? <AppstoreOutlined />) : undefined,
      children: n.children?.map((c) => toItem(c, depth + 1)),
    });
    return tree.map((n) => toItem(n, 0));
  }, [tree, locale]);

  const selected = selectedMenuKey(pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openMenuKeys(pathname));
  const [openedFor, setOpenedFor] = useState(pathname);
  // Navigating elsewhere opens that page's parents, keeping groups the user opened.
  if (openedFor !== pathname) {
    setOpenedFor(pathname);
    setOpenKeys((keys) => [...new Set([...keys, ...openMenuKeys(pathname)])]);
  }

  return (
    <Layout.Sider
      collapsed={collapsed}
      trigger={null}
      collapsible
      width={locale === 'en' ? SIDER_WIDTH.en : SIDER_WIDTH.zh}
      collapsedWidth={SIDER_COLLAPSED_WIDTH}
      theme="light"
      style={{ borderRight: `1px solid ${token.colorBorderSecondary}`, overflow: 'auto', height: '100vh', position: 'sticky', top: 0 }}
      aria-label="sidebar"
    >
      <div
        style={{ height: 56, display: 'flex', alignItems: 'center', gap: 10, padding: '0 20px', cursor: 'pointer', overflow: 'hidden' }}
        onClick={() => navigate('/')}
      >
        <img src="/logo.svg" alt="logo" width={24} height={24} style={{ flex: 'none' }} />
        {!collapsed && (
          <Typography.Text strong style={{ fontSize: 16, whiteSpace: 'nowrap' }} data-testid="sidebar-title">
            {t('appTitle') /* 广告投放系统 / Ad Delivery System (SPEC.md: "ad delivery system") */}
          </Typography.Text>
        )}
      </div>
      <Menu
        mode="inline"
        items={items}
        selectedKeys={[selected]}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => navigate(key)}
        style={{ borderInlineEnd: 'none' }}
        data-testid="side-menu"
      />
    </Layout.Sider>
  );
}
