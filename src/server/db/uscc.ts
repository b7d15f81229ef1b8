/**
 * Valid unified social credit codes (GB 32100) for demo data, built from their parts with the
 * check algorithms of the shared validators/ catalogue.
 */
import { makeUnifiedCreditCode, orgCodeCheckChar } from '../../../validators';

/**
 * Builds a code from its parts: registration authority + unit category (e.g. "91" enterprise,
 * "11" government body), the 6-digit area code and the 8-character organisation code body.
 */
export function makeUscc(kind: string, areaCode: string, orgBody: string): string {
  const orgCheck = orgCodeCheckChar(orgBody);
  if (!/^[0-9A-Z]{8}$/.test(orgBody) || orgCheck === undefined) throw new Error(`invalid organisation code body: ${orgBody}`);
  return makeUnifiedCreditCode(`${kind}${areaCode}${orgBody}${orgCheck}`);
}
