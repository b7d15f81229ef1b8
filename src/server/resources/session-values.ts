/**
 * The values a field's `session` names (the signed-in user's unit and user), read once per insert
 * that needs them. The unit's contact phone and the user's mobile are sealed at rest in sm mode:
 * `cipher` (the model's) opens them.
 */
import { sql } from 'kysely';
import type { Field } from '../../schema/types';
import type { AnyDb } from './repository';
import type { FieldCipher } from './sealed-columns';
import { openValue } from './sealed-fields';
import type { Actor } from './scope';

export type SessionKey = NonNullable<Field['session']>;

export async function sessionValues(trx: AnyDb, actor: Actor, cipher: FieldCipher | null = null): Promise<Record<SessionKey, string | null>> {
  const { rows } = await sql<{
    orgname: string;
    orgcode: string;
    areacode: string;
    address: string | null;
    contact: string | null;
    contact_phone: string | null;
    mobile: string | null;
  }>`
    SELECT u.orgname, u.orgcode, u.areacode, u.address, u.contact, u.contact_phone, p.mobile
    FROM sys_unit u LEFT JOIN sys_user p ON p.id = ${actor.userId} WHERE u.id = ${actor.unitId}`.execute(trx);
  const unit = rows[0];
  return {
    'unit.orgname': unit?.orgname ?? null,
    'unit.orgcode': unit?.orgcode ?? null,
    'unit.areacode': unit?.areacode ?? actor.areaCode,
    'unit.address': unit?.address ?? null,
    'unit.contact': unit?.contact ?? null,
    'unit.contactPhone': openValue(cipher, unit?.contact_phone ?? null),
    'user.name': actor.userName,
    'user.mobile': openValue(cipher, unit?.mobile ?? null),
  };
}
