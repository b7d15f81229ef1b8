/**
 * Menu access ids enforced by hand-written routes. They are ids of schemas/menu.json, so the seed
 * grants them with the menu and the schema lint can check they exist.
 */
export const ACCESS = {
  bypassAccount: 'system:bypassAccount',
  accountManager: 'account:manager',
  accountManagerSub: 'account:manager-bypassAccount',
  accountDetail: 'account:account-detail',
  accountAdd: 'account:add-account',
} as const;

export type AccessId = (typeof ACCESS)[keyof typeof ACCESS];
