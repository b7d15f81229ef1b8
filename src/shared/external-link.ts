/**
 * External links that carry the user's identity (menu items with `hrefAppend`), relative to the API
 * base: the portal's browser asks `token` for the address to open (session required); the outside
 * system redeems the token it was given at `verify` (no session; once).
 */
export const LINK_API = {
  token: '/a/link/token',
  verify: '/link/verify',
} as const;

/** What `token` answers: the outside address to open, with the identity already appended. */
export interface LinkAddress {
  url: string;
}

/** What `verify` answers about the user a token was issued to. */
export interface LinkIdentity {
  link: string;
  loginName: string;
  name: string;
  unitName: string;
  creditCode: string;
}
