/**
 * Account management on the wire: the unit main account's sub-accounts, the authority's
 * accounts of its area, the one-record flow log and the mobile upload tokens. Paths are relative
 * to the API base; the original API names the account manager's calls without paths, these are ours.
 */

export const ACCOUNT_API = {
  /** The main account (seed user) over its unit's sub-accounts: system menu /system/bypassAccount. */
  subList: '/a/stone/unit/bypassAccount/list',
  subGet: '/a/stone/unit/bypassAccount/get',
  subMenus: '/a/stone/unit/bypassAccount/menus',
  subSave: '/a/stone/unit/bypassAccount/save',
  subDisable: '/a/stone/unit/bypassAccount/disable',
  subEnable: '/a/stone/unit/bypassAccount/enable',
  /** The authority over the accounts of its area (/account/manager, manager-bypassAccount, account-detail, add-account). */
  list: '/a/stone/account/list',
  get: '/a/stone/account/get',
  menus: '/a/stone/account/menus',
  save: '/a/stone/account/save',
  disable: '/a/stone/account/disable',
  enable: '/a/stone/account/enable',
  unlock: '/a/stone/account/unlock',
  /** The flow log of one record by its id (/flowLog-single). */
  flowLogSingle: '/a/stone/flowLog/single',
  /** Mobile QR upload (/attachmentUploadMobile). */
  mobileToken: '/a/stone/attachment/mobileToken',
  mobileTokenFiles: '/a/stone/attachment/mobileToken/files',
  mobileInfo: '/a/stone/attachment/mobile/info',
  mobileUpload: '/a/stone/attachment/mobile/upload',
} as const;

/** `sys_user.status`: 0 in use, 2 disabled (JeeSite's codes). */
export const ACCOUNT_STATUS = { active: '0', disabled: '2' } as const;
/** The state a list shows: a disabled account reads 已停用 even while locked. */
export type AccountState = 'active' | 'locked' | 'disabled';

export const ACCOUNT_STATUS_LABELS: Record<string, string> = { '0': '正常', '2': '已停用' };

/** One account as lists show it. */
export interface AccountRow {
  id: string;
  loginName: string;
  name: string;
  mobile: string | null;
  phone: string | null;
  status: string;
  /** True while five wrong passwords keep it locked. */
  locked: boolean;
  lockedUntil: string | null;
  /** What the lists' 状态 column shows (dictionary account-state): disabled over locked over active. */
  state: AccountState;
  isUserSeed: 0 | 1;
  orgname: string;
  orgcode: string;
  areacode: string;
  roleNames: string;
  createDate: string;
}

/** One account with its roles' menus (detail, edit). */
export interface AccountDetail extends AccountRow {
  /** Each role with its menu ids and their menu titles (`menus`, in the same order). */
  roles: { id: string; name: string; roleType: string; menuIds: string[]; menus: string[]; own: boolean }[];
  /** The account's own role (else its first): its name and menu ids, as the account form edits them. */
  roleName: string;
  menuIds: string[];
  /** Sessions open now. */
  sessions: number;
  failedCount: number;
}

/** The save body: a new account (no id) or an edit; the role is the account's own, with these menus. */
export interface AccountSaveInput {
  id?: string;
  loginName: string;
  name: string;
  mobile: string;
  phone?: string;
  roleName: string;
  menuIds: string[];
}

/** Reply of a save: a new account's one-time initial password (simple: the first login forces a change). */
export interface AccountSaveResult {
  id: string;
  initialPassword: string | null;
}

/** A mobile upload token as the desktop shows it. */
export interface MobileToken {
  token: string;
  expiresAt: string;
}

/** What the desktop polls: the files the phone uploaded with the token, and whether it is spent or expired. */
export interface MobileTokenState {
  files: { id: string; name: string; url: string; size: number }[];
  used: boolean;
  expired: boolean;
}

/** What the phone sees before uploading. */
export interface MobileTokenInfo {
  fieldLabel: string | null;
  orgname: string;
  expiresAt: string;
  maxMb: number;
  accept: string[];
}
