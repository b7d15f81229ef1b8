/**
 * JSON schemas of the wire contract (src/shared/contract.ts) for route validation, fast
 * serialisation and the OpenAPI document. Keep in step with contract.ts.
 */
const nullableString = { type: ['string', 'null'] } as const;
const str = { type: 'string' } as const;

export const roleRefSchema = {
  type: 'object',
  properties: { id: str, roleType: str, name: str },
  required: ['id', 'roleType', 'name'],
} as const;

export const roleSchema = {
  type: 'object',
  properties: { id: str, name: str, roleType: str, menuIdList: { type: 'array', items: str } },
  required: ['id', 'name', 'roleType', 'menuIdList'],
} as const;

export const userInfoSchema = {
  type: 'object',
  properties: {
    id: str,
    loginName: str,
    name: str,
    phone: nullableString,
    mobile: nullableString,
    idCard: nullableString,
    userUnitAreacode: nullableString,
    currentRole: { anyOf: [roleRefSchema, { type: 'null' }] },
    officeId: nullableString,
    isUserSeed: { type: 'integer', enum: [0, 1] },
    simplePwd: { type: 'boolean' },
    basicUnitFlag: { type: 'integer', enum: [0, 1] },
    orgName: nullableString,
    ssoUserId: nullableString,
  },
  required: ['id', 'loginName', 'name', 'currentRole', 'isUserSeed', 'simplePwd', 'basicUnitFlag'],
} as const;

export const unitInfoSchema = {
  type: 'object',
  properties: {
    id: str,
    orgname: str,
    orgcode: str,
    areacode: str,
    address: nullableString,
    contact: nullableString,
    contactPhone: nullableString,
    unitType: nullableString,
  },
  required: ['id', 'orgname', 'orgcode', 'areacode'],
} as const;

export const loginResultProperties = {
  sessionid: str,
  sessionId: str,
  extendSessionId: str,
  user: userInfoSchema,
} as const;

export const loginResultSchema = {
  type: 'object',
  properties: { ...loginResultProperties, roleList: { type: 'array', items: roleSchema } },
  required: ['sessionid', 'sessionId', 'extendSessionId', 'user', 'roleList'],
} as const;

/** `Envelope<T>`; `extra` adds top-level properties (the login reply copies its data there). */
export function envelopeOf(data: object = {}, extra: Record<string, object> = {}) {
  return {
    type: 'object',
    properties: {
      result: { type: 'string', enum: ['true', 'false'] },
      success: { type: 'boolean' },
      isSuccess: { type: 'boolean' },
      message: str,
      errorMsg: str,
      code: str,
      data,
      ...extra,
    },
    required: ['result', 'success', 'isSuccess', 'message'],
  } as const;
}

/** `Page<T>`. */
export function pageOf(item: object) {
  return {
    type: 'object',
    properties: { pageNo: { type: 'integer' }, pageSize: { type: 'integer' }, count: { type: 'integer' }, list: { type: 'array', items: item }, countCapped: { type: 'boolean' } },
    required: ['pageNo', 'pageSize', 'count', 'list'],
  } as const;
}

/** Query parameters of every paged list. */
export const pageQueryProperties = {
  pageNo: { type: 'integer', minimum: 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
} as const;

/** The envelope reply every route may send on failure, for the OpenAPI document. */
export const failureResponses = {
  '4xx': envelopeOf(),
  '5xx': envelopeOf(),
} as const;
