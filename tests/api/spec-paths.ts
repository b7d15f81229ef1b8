/**
 * Every call path the original API names, in one table: the auth table's rows as written, and the other
 * call groups' operations under the original prefixes (the original clients' names). A row
 * with `owner` belongs to a feature whose screen is not built and is not bound yet; when that
 * feature lands its paths, it deletes the mark (tests/api/spec-paths.test.ts fails on a marked path
 * that answers, and on an unmarked one that does not), so the count of unbound paths only goes down.
 *
 * Groups the original API names without any path (self-service reports, opinions, interactions, invoices
 * and declarations; termination, maintenance project and price applications) are not rows: their
 * paths are whatever the feature that builds them chooses. The account manager's calls are rows under
 * the paths the account feature chose.
 */
export interface SpecPath {
  method: 'GET' | 'POST';
  /** Under the API base; `{x}` for a path parameter. */
  path: string;
  /** The feature (a work-item number) that will bind it; unset once bound. */
  owner?: 14 | 15;
}

const get = (path: string, owner?: SpecPath['owner']): SpecPath => ({ method: 'GET', path, ...(owner ? { owner } : {}) });
const post = (path: string, owner?: SpecPath['owner']): SpecPath => ({ method: 'POST', path, ...(owner ? { owner } : {}) });
const each = (prefix: string, names: readonly string[], owner?: SpecPath['owner']): SpecPath[] => names.map((n) => post(`${prefix}/${n}`, owner));

export const SPEC_PATHS: readonly SpecPath[] = [
  // Auth and user (the table of the original API)
  post('/a/login'),
  get('/a/stone/user/info'),
  get('/a/logout'),
  get('/a/sys/user/getUserInfo'),
  post('/a/stone/user/changeRole'),
  post('/a/stone/user/updateInfo'),
  post('/a/stone/user/updatePwd'),
  get('/a/stone/user/unit'),
  post('/a/stone/common/account/apply'),
  post('/a/stone/common/passwordRestApplyCheck'),
  post('/a/stone/common/passwordRestApply'),
  post('/a/stone/common/ogmUnitRegistCheck/{a}/{b}/{c}'),
  post('/a/stone/common/ogmUnitRegistInfoModifyCheck/{organcode}/{usedeptname}'),
  post('/a/stone/common/ModifyCheckUnitInfo/{id}/{operatorMechanismCode}/{operatorMechanism}'),
  get('/a/stone/common/images/captcha'),
  post('/a/stone/common/smsAuthCode/{a}/{b}'),
  post('/a/stone/common/checkSmsAuthCode'),
  // Home index
  ...each('/a/stone/index', ['statistics', 'overview', 'articles/list', 'articles/page', 'articles/detail']),
  // Construction notification
  ...each('/a/stone/eqmBcwBasic', ['list', 'detail', 'commit', 'save', 'delete', 'showOpinion', 'printSGGZD', 'checkBcwCancell', 'cancellationNotice']),
  // Personnel and certificates, safety personnel
  ...each('/a/stone/work/person', ['list', 'get', 'save', 'delete', 'safety/list', 'safety/get', 'safety/save', 'safety/delete']),
  // Hidden danger
  ...each('/a/safehiddendanger/epSafeHiddenDanger', ['detail', 'save', 'delete', 'complete', 'reportMis']),
  // Unit: dept, branch, use unit, changeUnit, list
  ...each('/a/stone/unit', [
    'dept/list',
    'dept/get',
    'dept/save',
    'dept/delete',
    'branch/list',
    'branch/get',
    'branch/save',
    'branch/delete',
    'useUnit',
    'changeUnit',
    'list',
  ]),
  // Operators
  ...each('/a/stone/operator', ['list', 'get', 'add', 'update', 'del', 'qualifications', 'overview']),
  // Equipment
  ...each('/a/stone/eqm', [
    'list',
    'addEqm',
    'getDetailBy',
    'changeEqm',
    'detectDueList',
    'detectExtendedList',
    'loadTestList',
    'pressurePipingList',
    'pipelineList',
  ]),
  ...['export', 'detectDueList/export', 'detectExtendedList/export', 'loadTestList/export'].map((n) => get(`/a/stone/eqm/${n}`)),
  // Use management
  ...each('/a/stone/useManage', ['list', 'detail', 'save', 'commit', 'delete', 'attachments', 'processSteps']),
  ...each('/a/stone/epPemUseregistApply', ['list', 'detail', 'save', 'commit', 'delete', 'attachments', 'processSteps']),
  // Online inspection application
  ...each('/a/stone/appOnline', [
    'list',
    'save',
    'detail',
    'revocation',
    'delete',
    'getChargeInspectionFee',
    'findChaReliefPolicys',
    'toPay/{a}/{b}',
    'updatePayCert/{id}',
  ]),
  // Attachments
  ...each('/a/stone/attachment', ['upload', 'attUpload', 'findAttList', 'delete']),
  get('/a/stone/attachment/download'),
  // Mobile QR upload: a token bound to the field's attrefsysid
  post('/a/stone/attachment/mobileToken'),
  get('/a/stone/attachment/mobileToken/files'),
  get('/a/stone/attachment/mobile/info'),
  post('/a/stone/attachment/mobile/upload'),
  // Account manager (the original API names the calls, these paths are ours): the authority's account list,
  // detail, create, disable/enable, unlock; the unit main account's sub-accounts; the one-record flow log
  ...['list', 'get', 'menus'].map((n) => get(`/a/stone/account/${n}`)),
  ...each('/a/stone/account', ['save', 'disable', 'enable', 'unlock']),
  ...['list', 'get', 'menus'].map((n) => get(`/a/stone/unit/bypassAccount/${n}`)),
  ...each('/a/stone/unit/bypassAccount', ['save', 'disable', 'enable']),
  get('/a/stone/flowLog/single'),
  // Product data, maintenance-unit basic data, unit change
  get('/api/prop/template'),
  post('/api/prop/import'),
  get('/api/prop/export'),
  ...each('/api/epbrmogmmaibasic/epBrmOgmMaiBasic', ['list', 'get', 'save', 'delete']),
  ...each('/api/unitchange/epQyUnitappchange', ['list', 'get', 'save', 'commit', 'delete']),
  // Error logging
  post('/save_error_logger'),
];
