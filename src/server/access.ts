/**
 * Menu access ids enforced by hand-written routes. They are ids of schemas/menu.json, so the seed
 * grants them with the menu and the schema lint can check they exist.
 */
export const ACCESS = {
  bypassAccount: 'system:bypassAccount',
} as const;

export type AccessId = (typeof ACCESS)[keyof typeof ACCESS];
