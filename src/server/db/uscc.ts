/**
 * Unified social credit codes (GB 32100) and the organisation codes (GB 11714) inside them, for
 * generating valid demo data.
 */
const USCC_CHARSET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const ORG_CODE_WEIGHTS = [3, 7, 9, 10, 5, 8, 4, 2];

function orgCodeValue(c: string): number {
  return /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55; // A = 10 ... Z = 35
}

/** GB 11714 check character of an 8-character organisation code body. */
export function orgCodeCheckChar(body: string): string {
  if (!/^[0-9A-Z]{8}$/.test(body)) throw new Error(`invalid organisation code body: ${body}`);
  const sum = [...body].reduce((acc, c, i) => acc + orgCodeValue(c) * ORG_CODE_WEIGHTS[i], 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 'X' : check === 11 ? '0' : String(check);
}

/** GB 32100 check character of the first 17 characters. */
export function usccCheckChar(body: string): string {
  if (body.length !== 17 || [...body].some((c) => !USCC_CHARSET.includes(c))) throw new Error(`invalid USCC body: ${body}`);
  const sum = [...body].reduce((acc, c, i) => acc + USCC_CHARSET.indexOf(c) * USCC_WEIGHTS[i], 0);
  return USCC_CHARSET[(31 - (sum % 31)) % 31];
}

export function isValidUscc(code: string): boolean {
  return /^[0-9A-HJ-NPQRTUWXY]{18}$/.test(code) && usccCheckChar(code.slice(0, 17)) === code[17];
}

/**
 * Builds a code from its parts: registration authority + unit category (e.g. "91" enterprise,
 * "11" government body), the 6-digit area code and the 8-character organisation code body.
 */
export function makeUscc(kind: string, areaCode: string, orgBody: string): string {
  const body = `${kind}${areaCode}${orgBody}${orgCodeCheckChar(orgBody)}`;
  return body + usccCheckChar(body);
}
