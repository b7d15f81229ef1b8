/**
 * Names of the validation catalogue (SPEC.md §5 plus the unit identifiers) that field `rules` may
 * use. Stand-in until validators/index.ts lands: then this becomes `Object.keys(rules)`.
 */
export const RULE_NAMES: readonly string[] = [
  'email',
  'url',
  'nonNegativeInteger',
  'number',
  'positiveInteger',
  'amount',
  'mobile',
  'postalCode',
  'phoneOrLandline',
  'fixedAssets',
  'deviceCode',
  'registrationCode',
  'idCard',
  'noLowercase',
  'password',
  'unifiedCreditCode',
  'orgCode',
];
