/** Kysely table types of the foundation tables (see migrations/0001_foundation.ts). */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface SysUnitTable {
  id: string;
  orgname: string;
  /** Unified social credit code (GB 32100), the login orgCode. */
  orgcode: string;
  areacode: string;
  address: string | null;
  contact: string | null;
  contact_phone: string | null;
  /** e.g. 'use' (using unit), 'authority' (supervision), 'maintenance'. */
  unit_type: string;
  sso_user_id: string | null;
  created_at: Timestamp;
}

export interface SysUserTable {
  id: string;
  unit_id: string;
  login_name: string;
  name: string;
  password_hash: string;
  phone: string | null;
  mobile: string | null;
  id_card: string | null;
  /** 1 for the unit's seed (main) account, which sees the system menu. */
  is_user_seed: number;
  /** 1 for a sub-account (bypass account). */
  basic_unit_flag: number;
  office_id: string | null;
  failed_count: Generated<number>;
  locked_until: Date | null;
  /** '0' normal, '2' disabled (JeeSite status codes). */
  status: Generated<string>;
  /** Set with a password someone else chose (`npm run admin`); cleared by the user's own change (migration 0018). */
  password_must_change: Generated<boolean>;
  /** When the current password was set (migration 0020; PORTAL_PASSWORD_MAX_AGE_DAYS ages it). */
  password_changed_at: Generated<Date>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SysRoleTable {
  id: string;
  name: string;
  role_type: string;
  /** Permitted menu access ids (schemas/menu.json `access`). */
  menu_ids: Json<string[]>;
  sort: Generated<number>;
}

export interface SysUserRoleTable {
  user_id: string;
  role_id: string;
}

export interface SysSessionTable {
  /** Digest of the session token (crypto-suite tokenDigest), never the token (migration 0020). */
  id: string;
  /** Digest of the extension token. */
  extend_id: string;
  user_id: string;
  role_id: string | null;
  simple_pwd: boolean;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  data: Json<Record<string, unknown>>;
}

/** A session ended by the system (a newer login of its account), so its next request is told why (migration 0020). */
export interface SysSessionEndTable {
  /** The ended session's id or extension digest. */
  digest: string;
  reason: string;
  ended_at: Timestamp;
}

/** An account's earlier password (scrypt hash) and when it was set (migration 0020). */
export interface SysPasswordHistoryTable {
  id: Generated<string>;
  user_id: string;
  password_hash: string;
  created_at: Timestamp;
}

export interface SysCaptchaTable {
  id: string;
  text: string;
  expires_at: Timestamp;
}

export interface SysRateCounterTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface SysErrorLogTable {
  id: string;
  type: string;
  code: string;
  mes: string;
  url: string;
  /** When the server received the report (housekeeping ages reports by it). */
  time: Timestamp;
  /** The browser's own time of the error, as it reported it (migration 0010); null when absent or unreadable. */
  client_time: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** A fingerprint (prefix) of the session's id, the token's digest (migration 0020); never the token. */
  token: string | null;
  user_id: string | null;
  user_name: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface SysConfigTable {
  key: string;
  value: string;
  created_at: Timestamp;
}

export interface Database {
  sys_unit: SysUnitTable;
  sys_user: SysUserTable;
  sys_role: SysRoleTable;
  sys_user_role: SysUserRoleTable;
  sys_session: SysSessionTable;
  sys_session_end: SysSessionEndTable;
  sys_password_history: SysPasswordHistoryTable;
  sys_captcha: SysCaptchaTable;
  sys_error_log: SysErrorLogTable;
  sys_rate_counter: SysRateCounterTable;
  sys_config: SysConfigTable;
}

export type UnitRow = Selectable<SysUnitTable>;
export type UserRow = Selectable<SysUserTable>;
export type RoleRow = Selectable<SysRoleTable>;
export type SessionRow = Selectable<SysSessionTable>;
export type NewUnit = Insertable<SysUnitTable>;
export type NewUser = Insertable<SysUserTable>;
export type NewRole = Insertable<SysRoleTable>;
export type UserUpdate = Updateable<SysUserTable>;
