/**
 * The external simple declaration (/dlgzh, /dlgzhList, /dlgzhDetail): paths relative to the API
 * base, categories and shapes shared by the server and its tests (the open screens are JSON).
 */
import categoryDict from '../../schemas/dicts/declaration-category.json';
import declarationResource from '../../schemas/resources/simple-declaration.json';
export const DECLARATION_API = {
  smsCode: '/a/stone/dlgzh/smsCode',
  login: '/a/stone/dlgzh/login',
  save: '/a/stone/dlgzh/save',
  list: '/a/stone/dlgzh/list',
  detail: '/a/stone/dlgzh/detail',
} as const;

/** Category code → label: the dictionary declaration-category. */
export const DECLARATION_CATEGORIES: Record<string, string> = Object.fromEntries(categoryDict.items.map((item) => [item.value, item.label]));

/** State code → label: the workflow of the resource simple-declaration (the authority accepts, returns, closes). */
export const DECLARATION_STATES: Record<string, string> = Object.fromEntries(declarationResource.workflow.states.map((state) => [state.code, state.label]));

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
