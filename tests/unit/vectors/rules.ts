/**
 * Test vectors for the validation catalogue, shared by every path that runs it: the direct
 * function, the server's ajv keyword and the browser's Formily binding. `ok` values must pass,
 * `bad` values must fail with the rule's message.
 */
import type { RuleName, RuleValue } from '../../../validators';

export interface RuleVectors {
  ok: RuleValue[];
  bad: RuleValue[];
}

/** Values every rule accepts: "required" is a separate concern. */
export const EMPTY_VALUES: RuleValue[] = [undefined, null, '', '   ', '\t'];

export const VECTORS: Record<RuleName, RuleVectors> = {
  email: {
    ok: ['user@example.com', 'a_b-c@mail-host.cn', 'first.last@sub.example.org', ' x1@qq.com ', 'UPPER@EXAMPLE.COM', '123@163.com'],
    bad: ['user', 'user@', '@example.com', 'user@host', 'us er@example.com', 'user@@example.com', 'user@example..com', '用户@example.com', 12345, 'a+b@example.com'],
  },
  url: {
    ok: ['http://example.com', 'https://www.example.com.cn/path?q=1#x', 'ftp://files.example.org', 'http://192.168.1.10:8080/a', 'https://localhost:3000', 'http://a-b.example.io/'],
    bad: ['example.com', 'www.example.com', 'mailto:a@b.com', 'http://', 'https://exa mple.com', 'http://300.1.1.1', 'gopher://example.com', 'http//example.com', 42, 'ftp:/x.org'],
  },
  nonNegativeInteger: {
    ok: ['0', '7', '42', '007', 0, 123456789, ' 12 '],
    bad: ['-1', '1.5', '1e3', 'abc', '１２', '+3', -4, 2.5, '1 2', '0x10'],
  },
  number: {
    ok: ['0', '-3', '+3', '3.14', '-0.5', '.5', '10.', 42, -1.25, ' 8 '],
    bad: ['abc', '1,000', '1.2.3', '--1', '１２', '1e', '3 4', '¥5', Number.NaN, 'NaN'],
  },
  positiveInteger: {
    ok: ['1', '9', '10', '123456', 1, 99, ' 5 '],
    bad: ['0', '-1', '01', '1.0', '1.5', 'a', '１', 0, -3, 2.5, '+1'],
  },
  amount: {
    ok: ['0', '12', '12.3', '12.34', '0.01', 100, 99.5, ' 8.88 '],
    bad: ['12.345', '-1', '.5', '01.2', '1.', 'abc', '１２', 1.005, '1,000.00', '12.3.4'],
  },
  mobile: {
    ok: ['13812345678', '15900000000', '19912345678', 18600001111, ' 17712345678 ', '13000000000'],
    bad: ['12812345678', '23812345678', '1381234567', '138123456789', '138-1234-5678', '１３８１２３４５６７８', 'abcdefghijk', 10012345678, '+8613812345678', '1381234567a'],
  },
  postalCode: {
    ok: ['315000', '100000', '999999', 315040, ' 315100 ', '200001'],
    bad: ['015000', '31500', '3150000', 'abcdef', '３１５０００', '315 00', 12345, '-31500', '315.00', '0'],
  },
  phoneOrLandline: {
    ok: ['0574-87654321', '010-1234567', '87654321', '1234567', '13812345678', ' 0574-1234567 '],
    bad: ['0574-123456', '0574-123456789', '123456', '574-87654321', '0574_87654321', '12812345678', 'phone', '０５７４-87654321', '0574--1234567', 1234],
  },
  fixedAssets: {
    ok: ['1', '100', '99999999', 5, ' 20 ', '10'],
    bad: ['0', '-5', '1.5', '01', 'abc', '１０', 0, -1, 3.3, '1e3'],
  },
  deviceCode: {
    ok: ['ABC123', 'abc123', '3100330212', 'X', 12345, ' A1B2 '],
    bad: ['ABC-123', 'ABC 123', 'ABC_123', '设备01', 'ＡＢＣ', 'A.B', '#1', '１２３', 'A/B', 'a,b'],
  },
  registrationCode: {
    ok: ['31003302122026000001', '00000000000000000000', '12345678901234567890', ' 31003302122026000001 '],
    bad: ['3100330212202600000', '310033021220260000011', '3100330212202600000A', '3100-330212-2026-0001', '３１００３３０２１２２０２６００００１', 'abc', 3100330212, '3100330212 2026000001', '1.2345678901234567e19', '3100330212202600000x'],
  },
  idCard: {
    ok: ['11010519491231002X', '11010519491231002x', '110101200002290018', ' 11010519491231002X ', '330212198001010016', '440308199912310010'],
    bad: ['110105194912310021', '11010519491231002', '110105194912310020X', '110101190002290011', '110101199902290018', '110101203001010014', '110101198013010018', '11010519491231002Y', '１１０１０５１９４９１２３１００２Ｘ', 110105194912310020],
  },
  noLowercase: {
    ok: ['ABC', 'ABC123', '中文', '123', 'A-B_C', 45, ' XYZ '],
    bad: ['abc', 'Abc', 'ABc', 'x', '中文a', 'ABC def', '1a'],
  },
  password: {
    ok: ['Admin@2026', 'abcDEF12', 'abc123!@#', 'ABC123!@#', 'Aa1!Aa1!Aa1!Aa', 'pass word1A', 'aB3$aB3$'],
    bad: ['12345678', 'abcdefgh', 'Abcdefgh', 'abc12345', 'Ab1!', 'Aa1!Aa1!Aa1!Aa1', 'ABCDEFGH', '!@#$%^&*', 'Abcdefghijklmn', 12345678],
  },
  unifiedCreditCode: {
    ok: ['91330212MA2CL8F54L', '113302000025301790', ' 91330212MA2CL8F54L '],
    bad: ['91330212MA2CL8F54A', '91330212MA2CL8F54', '91330212MA2CL8F54LX', '91330212MA2CL8FI4L', '91330212ma2cl8f54l', 'abc', 12345],
  },
  orgCode: {
    ok: ['D2143569X', 'D2143569-X', '00000000-0'],
    bad: ['D21435691', 'D2143569', 'D2143569XX', 'd2143569x', '#2143569X', 1234],
  },
};
