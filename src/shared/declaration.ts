/**
 * The external simple declaration (/dlgzh, /dlgzhList, /dlgzhDetail): paths relative to the API
 * base, categories and shapes shared by the open pages and the server.
 */
export const DECLARATION_API = {
  smsCode: '/a/stone/dlgzh/smsCode',
  login: '/a/stone/dlgzh/login',
  save: '/a/stone/dlgzh/save',
  list: '/a/stone/dlgzh/list',
  detail: '/a/stone/dlgzh/detail',
} as const;

export const DECLARATION_CATEGORIES: Record<string, string> = {
  danger: '安全隐患举报',
  fault: '设备故障反映',
  consult: '安全咨询',
  other: '其他事项',
};

export const DECLARATION_STATES: Record<string, string> = { submitted: '已提交', accepted: '已受理', closed: '已办结' };

export interface DeclarationInput {
  declarant: string;
  category: string;
  title: string;
  address?: string;
  content: string;
}

export interface Declaration extends DeclarationInput {
  id: string;
  declNo: string;
  mobile: string;
  status: string;
  createDate: string;
}

/** What a verified mobile gets: an access token for its list and details (sessionStorage). */
export interface DeclarationAccess {
  access: string;
  mobile: string;
  expiresAt: string;
}
