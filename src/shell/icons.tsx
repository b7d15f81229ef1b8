/**
 * Icons that schemas/menu.json may name. Only these are bundled (importing the whole icon set would
 * add megabytes); tests/unit/shell-menu.test.ts checks every menu icon is registered here.
 */
import {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  CodeOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  FileAddOutlined,
  FileProtectOutlined,
  HomeOutlined,
  NotificationOutlined,
  QrcodeOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

export const MENU_ICONS: Record<string, ComponentType> = {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  CodeOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  FileAddOutlined,
  FileProtectOutlined,
  HomeOutlined,
  NotificationOutlined,
  QrcodeOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  ToolOutlined,
};

export function MenuIcon({ name }: { name?: string }) {
  const Icon = name ? MENU_ICONS[name] : undefined;
  return Icon ? <Icon /> : null;
}
