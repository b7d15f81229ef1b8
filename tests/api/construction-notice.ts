/** Test data shared by the API tests of construction notices (施工告知, resource eqm-bcw-basic). */
import { addToDate } from '../../src/shared/dates';
import { makeUscc } from '../../src/server/db/uscc';

/** The attachment both required file fields of a notice carry. */
export const NOTICE_FILE = [{ name: '施工方案.pdf', url: '/files/plan.pdf' }];

/**
 * A complete notice of an elevator installation by a licensed installer (licence valid a year
 * from `today`), starting in ten days and ending in forty; `extra` overrides or adds fields.
 */
export function constructionNotice(today: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    constructionType: 'install',
    installerName: '宁波迅达电梯安装工程有限公司',
    installerCreditCode: makeUscc('91', '330203', 'MA2AH3K1'),
    licenceNo: 'TS3133101-2029',
    licenceLevel: 'A级',
    licenceExpiry: addToDate(today, 1, 'y'),
    equclacode: '3000',
    subCategory: '3100',
    equipmentName: '测试乘客电梯',
    factoryNo: 'T2026001',
    manufacturer: '通力电梯有限公司',
    planStartDate: addToDate(today, 10, 'd'),
    planEndDate: addToDate(today, 40, 'd'),
    siteArea: '330212',
    siteAddress: '宁波市鄞州区测试路1号',
    constructionPlan: NOTICE_FILE,
    licenceCopy: NOTICE_FILE,
    ...extra,
  };
}
