import { EyeInvisibleOutlined } from '@ant-design/icons';
import { regularRoutes, routeByPath, type RouteEntry } from '@ads/contracts';
import { Button, Flex, Tag, Tooltip, Tree, Typography, theme, type TreeDataNode } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/stores/settings-store';
import { LEAF_PATHS, onlyLeaves, regularEntries, routeTitle } from './route-paths';

interface Props {
  /** Checked leaf paths. */
  value?: string[];
  onChange?: (paths: string[]) => void;
  /** Paths the editor may grant; others are shown but cannot be ticked. */
  canGrant: (path: string) => boolean;
  id?: string;
}

const GROUP_KEYS = regularEntries.filter((r) => r.children?.length).map((r) => r.path);

/** The checkable tree of every regular route path, in the interface language; hidden pages marked. */
export function PathTree({ value = [], onChange, canGrant, id }: Props) {
  const { t } = useTranslation('sys');
  const { token } = theme.useToken();
  const locale = useSettings((s) => s.locale);
  const [expandedKeys, setExpandedKeys] = useState<string[]>(GROUP_KEYS);

  const treeData = useMemo(() => {
    const toNode = (r: RouteEntry): TreeDataNode => {
      const title = routeTitle(r, locale);
      const active = r.activeMenu ? routeByPath.get(r.activeMenu) : undefined;
      const granted = canGrant(r.path);
      return {
        key: r.path,
        disableCheckbox: !granted,
        title: (
          <Flex gap={8} align="center" wrap={false}>
            <span>{title}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.path}
            </Typography.Text>
            {r.hidden && (
              <Tooltip title={active ? t('roles.form.hiddenHint', { parent: routeTitle(active, locale) }) : undefined}>
                <Tag icon={<EyeInvisibleOutlined />} style={{ marginInlineEnd: 0 }}>
                  {t('roles.form.hidden')}
                </Tag>
              </Tooltip>
            )}
            {!granted && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('roles.form.notHeld')}
              </Typography.Text>
            )}
          </Flex>
        ),
        children: r.children?.map(toNode),
      };
    };
    return regularRoutes.map(toNode);
  }, [locale, canGrant, t]);

  const grantable = LEAF_PATHS.filter(canGrant);
  // Select all / none leave untouched what the editor cannot grant.
  const locked = value.filter((p) => !canGrant(p));

  return (
    <Flex vertical gap={8} id={id}>
      <Flex gap={8} align="center" wrap>
        <Button size="small" onClick={() => setExpandedKeys(GROUP_KEYS)}>
          {t('roles.form.expandAll')}
        </Button>
        <Button size="small" onClick={() => setExpandedKeys([])}>
          {t('roles.form.collapseAll')}
        </Button>
        <Button size="small" onClick={() => onChange?.(onlyLeaves([...locked, ...grantable]))}>
          {t('roles.form.selectAll')}
        </Button>
        <Button size="small" onClick={() => onChange?.(locked)}>
          {t('roles.form.clearAll')}
        </Button>
        <Typography.Text type="secondary" data-testid="paths-checked">
          {t('roles.form.checked', { count: value.length, total: LEAF_PATHS.length })}
        </Typography.Text>
      </Flex>
      <div style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, padding: 8 }}>
        <Tree
          checkable
          selectable={false}
          // The frame around it draws the edge; the tree takes the drawer's background in both themes.
          style={{ background: 'transparent' }}
          treeData={treeData}
          checkedKeys={value}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpandedKeys(keys as string[])}
          onCheck={(checked) => onChange?.(onlyLeaves((Array.isArray(checked) ? checked : checked.checked) as string[]))}
        />
      </div>
    </Flex>
  );
}
