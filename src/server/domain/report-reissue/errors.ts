/** Errors of report and certificate re-issues, added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const REISSUE_ERRORS = defineErrors({
  /** The chosen inspection record is not one of the unit's own (or is gone). */
  REISSUE_RECORD_NOT_FOUND: { status: 200, message: '所选检验记录不存在或不属于本单位' },
  /** No rule of the inspection-routing dictionary covers the unit's area and the equipment. */
  REISSUE_NOT_ROUTED: { status: 200, message: '本单位所在地区暂无受理补发的检验机构，请联系属地特种设备检验机构' },
  /** issue (a PDF to download) on an application the unit asked to be posted. */
  REISSUE_POSTED: { status: 200, message: '该申请选择邮寄领取，请使用“邮寄补发”并填写快递单号' },
  /** reissue-post on an application the unit asked to download. */
  REISSUE_ONLINE: { status: 200, message: '该申请选择在线下载，请使用“补发”上传补发文件' },
});
