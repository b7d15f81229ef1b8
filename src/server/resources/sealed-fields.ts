/**
 * Sensitive columns encrypted at rest (国密 mode): the declared text fields whose `mask` pattern is
 * `idCard` or `mobile` are stored sealed with SM4 (crypto-suite.ts `seal`: SM4-CBC with an
 * HMAC-SM3 tag, `sealed:sm:<base64>`) under a key derived from PORTAL_MASTER_KEY, when the portal
 * runs with PORTAL_CRYPTO=sm and a master key. Each such column has a companion `<column>__bidx`
 * holding a blind index, the HMAC-SM3 of the whole value under a second derived key, so exact
 * filters and unique checks still run in SQL; nothing else about the value can be searched.
 *
 * Writes seal in repository.ts (insertRow/updateRow); reads unseal in JavaScript after the query
 * and mask there with maskText (mask-patterns.ts, equal to maskSql) — see `openRows`. Without a
 * cipher (the standard mode, or sm without a master key) nothing here runs and the columns hold
 * plain text, as they always did; the columns are `text` in both modes so switching needs no
 * migration.
 *
 * `convertSealedFields` runs at every start after the tables are brought up to date: in sm mode it
 * seals the plain values left in those columns (by an earlier standard-mode run, by the demo
 * seed, by code that wrote with its own SQL), batched and idempotent; in the standard mode, after
 * an sm-mode run, it unseals them again (the master key is needed for that).
 */
import { sql, type Kysely } from 'kysely';
import { StartupError, type Config } from '../config';
import { deriveKey, isSealed, keyedDigest, seal, unseal } from '../services/crypto-suite';
import { maskText } from './mask-patterns';
import type { FieldModel, ResourceModel } from './model';
import { quote } from './naming';
import { indexColumnOf, sealable, type FieldCipher } from './sealed-columns';

/** Any database or transaction, and a row as read (repository.ts has the same; not imported, to keep it free of cycles). */
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

/** An ID card's check character may be typed either case; the index matches the value as stored, whatever the case. */
const indexed = (plain: string): string => plain.trim().toUpperCase();

/** The cipher of sensitive columns: sm mode with a master key, else null (columns stay plain). */
export function fieldCipher(config: Pick<Config, 'crypto' | 'masterKey'>): FieldCipher | null {
  if (config.crypto !== 'sm' || !config.masterKey) return null;
  const sealKey = deriveKey(config.masterKey, 'sealed-fields')!;
  const indexKey = deriveKey(config.masterKey, 'sealed-fields-index')!;
  return {
    seal: (plain) => seal('sm', sealKey, plain),
    open: (stored) => (isSealed(stored) ? unseal(sealKey, stored) : stored),
    index: (plain) => keyedDigest('sm', indexKey, indexed(plain)),
  };
}

/** Adds to `values` (column → value of an insert or update) the sealed form and blind index of each sealed column it sets. */
export function sealValues(model: ResourceModel, values: Record<string, unknown>): Record<string, unknown> {
  const cipher = model.cipher;
  if (!cipher || model.sealed.length === 0) return values;
  let out = values;
  for (const f of model.sealed) {
    if (!(f.column in values)) continue;
    if (out === values) out = { ...values };
    const value = values[f.column];
    const plain = typeof value === 'string' && value !== '' ? openLenient(cipher, value) : null;
    out[f.column] = plain === null ? value : cipher.seal(plain);
    out[indexColumnOf(f.column)] = plain === null ? null : cipher.index(plain);
  }
  return out;
}

/** A value to write: a sealed value under our key (a row read raw and written back) is opened, anything else is plain text. */
function openLenient(cipher: FieldCipher, value: string): string {
  try {
    return cipher.open(value);
  } catch {
    return value;
  }
}

/**
 * The rows of a query over `model` with its sealed fields opened, in place: whole, or masked by
 * the field's pattern (`masked`: what a list, export or answer shows). Only the fields the rows
 * carry are touched.
 */
export function openRows(model: ResourceModel, rows: Row[], masked: boolean): Row[] {
  const cipher = model.cipher;
  if (!cipher || model.sealed.length === 0) return rows;
  for (const row of rows) {
    for (const f of model.sealed) {
      const value = row[f.name];
      if (typeof value !== 'string' || value === '') continue;
      const plain = cipher.open(value);
      row[f.name] = masked ? maskText(f.mask!.pattern, plain) : plain;
    }
  }
  return rows;
}

/** The condition matching rows whose sealed field `f` holds `plain` exactly (through the blind index). */
export function sealedEquals(model: ResourceModel, f: FieldModel, plain: string) {
  return sql<boolean>`${sql.ref(indexColumnOf(f.column))} = ${model.cipher!.index(plain)}`;
}

/** `sys_config` key present while sealed values may be in the database (set before the first is written). */
export const SEALED_FIELDS_SETTING = 'resources.sealedFields';
const BATCH = 500;

/** Every model (sub-tables too) with sealable columns, and those columns. */
function sealableModels(models: readonly ResourceModel[]): { model: ResourceModel; fields: FieldModel[] }[] {
  return models.flatMap((model) => {
    const fields = model.fields.filter(sealable);
    return fields.length > 0 ? [{ model, fields }] : [];
  });
}

const masterKeyError = (zh: string, en: string) => new StartupError('PORTAL_MASTER_KEY', zh, en);

/**
 * Brings the sensitive columns to the current mode (see the file comment). Returns how many rows
 * were rewritten. Runs under an advisory lock, one transaction per batch of BATCH rows.
 */
export async function convertSealedFields(db: AnyDb, models: readonly ResourceModel[], config: Pick<Config, 'crypto' | 'masterKey'>, log: { info(message: string): void; warn(message: string): void }): Promise<number> {
  const targets = sealableModels(models);
  if (targets.length === 0) return 0;
  const flag = async () => (await sql<{ value: string }>`SELECT value FROM sys_config WHERE key = ${SEALED_FIELDS_SETTING}`.execute(db)).rows.length > 0;
  const cipher = fieldCipher(config);
  const sealing = cipher !== null;
  if (!sealing) {
    // Standard mode (or sm without a master key): nothing to do unless an sm-mode run sealed values.
    if (!(await flag())) {
      if (config.crypto === 'sm') log.warn('PORTAL_CRYPTO=sm without PORTAL_MASTER_KEY: ID card and mobile columns are stored unencrypted');
      return 0;
    }
    if (!config.masterKey) {
      // The mark alone (an sm-mode run that sealed nothing, or a conversion back cut short after its last row) asks for no key.
      if (!(await anySealed(db, targets))) {
        await sql`DELETE FROM sys_config WHERE key = ${SEALED_FIELDS_SETTING}`.execute(db);
        return 0;
      }
      throw masterKeyError('未设置：数据库中的身份证号、手机号等字段已加密保存，需原主密钥才能启动', 'is not set: ID card and mobile columns in the database are sealed and need the master key they were sealed with');
    }
  } else {
    await sql`INSERT INTO sys_config (key, value) VALUES (${SEALED_FIELDS_SETTING}, 'sm') ON CONFLICT (key) DO NOTHING`.execute(db);
  }
  const opener = cipher ?? fieldCipher({ crypto: 'sm', masterKey: config.masterKey })!;
  let total = 0;
  for (const { model, fields } of targets) {
    const columns = fields.map((f) => quote(f.column));
    const pending = sealing
      ? fields.map((f) => `(${quote(f.column)} <> '' AND ${quote(f.column)} NOT LIKE 'sealed:%')`).join(' OR ')
      : fields.map((f) => `${quote(f.column)} LIKE 'sealed:%' OR ${quote(indexColumnOf(f.column))} IS NOT NULL`).join(' OR ');
    await checkKey(db, model, fields, opener);
    for (;;) {
      const done = await db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext('portal:sealed-fields'))`.execute(trx);
        const { rows } = await sql<Record<string, string | null>>`SELECT id, ${sql.raw(columns.join(', '))} FROM ${sql.table(model.table)} WHERE ${sql.raw(pending)} LIMIT ${BATCH}`.execute(trx);
        for (const row of rows) {
          const sets = fields.flatMap((f) => {
            const stored = row[f.column];
            const plain = typeof stored === 'string' && stored !== '' ? opener.open(stored) : null;
            const value = plain === null ? stored : sealing ? opener.seal(plain) : plain;
            const index = plain === null || !sealing ? null : opener.index(plain);
            return [sql`${sql.ref(f.column)} = ${value}`, sql`${sql.ref(indexColumnOf(f.column))} = ${index}`];
          });
          await sql`UPDATE ${sql.table(model.table)} SET ${sql.join(sets)} WHERE id = ${row.id}`.execute(trx);
        }
        return rows.length;
      });
      total += done;
      if (done < BATCH) break;
    }
  }
  if (!sealing) await sql`DELETE FROM sys_config WHERE key = ${SEALED_FIELDS_SETTING}`.execute(db);
  if (total > 0) log.info(sealing ? `sealed ID card and mobile values in place: ${total} rows` : `unsealed ID card and mobile values (PORTAL_CRYPTO is no longer sm): ${total} rows`);
  return total;
}

/** Whether any sealable column of `targets` holds a sealed value or a blind index. */
async function anySealed(db: AnyDb, targets: readonly { model: ResourceModel; fields: readonly FieldModel[] }[]): Promise<boolean> {
  for (const { model, fields } of targets) {
    const any = fields.map((f) => `${quote(f.column)} LIKE 'sealed:%' OR ${quote(indexColumnOf(f.column))} IS NOT NULL`).join(' OR ');
    const { rows } = await sql`SELECT 1 FROM ${sql.table(model.table)} WHERE ${sql.raw(any)} LIMIT 1`.execute(db);
    if (rows.length > 0) return true;
  }
  return false;
}

/** One sealed value of the table opened with the current key: a different master key stops the start. */
async function checkKey(db: AnyDb, model: ResourceModel, fields: readonly FieldModel[], cipher: FieldCipher): Promise<void> {
  const any = fields.map((f) => `${quote(f.column)} LIKE 'sealed:%'`).join(' OR ');
  const { rows } = await sql<Record<string, string | null>>`SELECT ${sql.raw(fields.map((f) => quote(f.column)).join(', '))} FROM ${sql.table(model.table)} WHERE ${sql.raw(any)} LIMIT 1`.execute(db);
  const value = rows[0] && fields.map((f) => rows[0][f.column]).find((v): v is string => typeof v === 'string' && isSealed(v));
  if (!value) return;
  try {
    cipher.open(value);
  } catch {
    throw masterKeyError('与加密保存身份证号、手机号等字段时所用的主密钥不一致', 'is not the key the ID card and mobile columns were sealed with');
  }
}
