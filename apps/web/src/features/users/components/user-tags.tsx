import { IS_ADMIN_MANAGER, IS_ADMIN_SUPER, type UserStatus } from '@ads/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export type LevelKey = 'super' | 'manager' | 'staff';

export const levelKey = (isAdmin: number): LevelKey => (isAdmin === IS_ADMIN_SUPER ? 'super' : isAdmin === IS_ADMIN_MANAGER ? 'manager' : 'staff');

/** 超级管理员 / 管理员 / 员工 (preset tag colours follow the light or dark theme). */
export function LevelTag({ isAdmin }: { isAdmin: number }) {
  const { t } = useTranslation('sys');
  const key = levelKey(isAdmin);
  const color = key === 'super' ? 'gold' : key === 'manager' ? 'blue' : undefined;
  return <Tag color={color}>{t(`levels.${key}`)}</Tag>;
}

export function StatusTag({ status }: { status: UserStatus }) {
  const { t } = useTranslation('sys');
  return <Tag color={status === 'enabled' ? 'success' : 'default'}>{t(`userStatus.${status}`)}</Tag>;
}
