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
import { inTransaction } from '../db/index';
import { deriveKey, isSealed, keyedDigest, seal, unseal } from '../services/crypto-suite';
import { maskText } from './mask-patterns';
import type { FieldModel, ResourceModel } from './model';
import { quote } from './naming';
import { indexColumnOf, sealable, type FieldCipher } from './sealed-columns';

/** Any database or transaction, and a row as read (repository.ts has the same; not imported, to keep it free of cycles). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works over any database's query layer
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

/**
 * Account columns sealed in sm mode outside the resource models: the accounts' and units' own
 * mobile, ID card and contact phone, and the mobile a declarant's SMS access was granted to.
 * No code looks a row up by these values (logins go by login name, a reset by login name and
 * credit code, the declarant's access by its token), so they carry no blind index.
 */
export const SEALED_ACCOUNT_COLUMNS: readonly { table: string; column: string; key: string }[] = [
  { table: 'sys_user', column: 'mobile', key: 'id' },
  { table: 'sys_user', column: 'id_card', key: 'id' },
  { table: 'sys_unit', column: 'contact_phone', key: 'id' },
  { table: 'ext_declaration_access', column: 'mobile', key: 'token_hash' },
];

/** One table's columns to convert; `indexed` columns have a blind-index companion (`indexColumnOf`). */
interface SealTarget {
  table: string;
  /** The primary-key column. */
  key: string;
  columns: { column: string; indexed: boolean }[];
}

/** The sealable columns of every model (sub-tables too), then the account columns. */
function sealTargets(models: readonly ResourceModel[]): SealTarget[] {
  const fromModels = models.flatMap((model) => {
    const fields = model.fields.filter(sealable);
    return fields.length > 0 ? [{ table: model.table, key: 'id', columns: fields.map((f) => ({ column: f.column, indexed: true })) }] : [];
  });
  const accounts = new Map<string, SealTarget>();
  for (const { table, column, key } of SEALED_ACCOUNT_COLUMNS) {
    const target = accounts.get(table) ?? { table, key, columns: [] };
    target.columns.push({ column, indexed: false });
    accounts.set(table, target);
  }
  return [...fromModels, ...accounts.values()];
}

/** The conditions of a target's columns that still hold a sealed value or a blind index. */
const sealedCondition = ({ columns }: SealTarget): string =>
  columns.map((c) => `${quote(c.column)} LIKE 'sealed:%'${c.indexed ? ` OR ${quote(indexColumnOf(c.column))} IS NOT NULL` : ''}`).join(' OR ');

/** The cipher of `config`, made once per configuration (the keys are derived once). */
const ciphers = new WeakMap<object, FieldCipher | null>();
export function cipherOf(config: Pick<Config, 'crypto' | 'masterKey'>): FieldCipher | null {
  if (!ciphers.has(config)) ciphers.set(config, fieldCipher(config));
  return ciphers.get(config)!;
}

/** A value of a sealed account column to write: sealed when there is a cipher, else as it is. */
export function sealValue<T extends string | null | undefined>(cipher: FieldCipher | null, value: T): T {
  return cipher && typeof value === 'string' && value !== '' ? (cipher.seal(openLenient(cipher, value)) as T) : value;
}

/** A value of a sealed account column as read: opened when there is a cipher (plain text stays as it is). */
export function openValue<T extends string | null | undefined>(cipher: FieldCipher | null, value: T): T {
  return cipher && typeof value === 'string' && value !== '' ? (cipher.open(value) as T) : value;
}

const masterKeyError = (zh: string, en: string) => new StartupError('PORTAL_MASTER_KEY', zh, en);

/**
 * Brings the sensitive columns (those of `models` and SEALED_ACCOUNT_COLUMNS) to the current mode
 * (see the file comment). Returns how many rows were rewritten. Runs under an advisory lock, one
 * transaction per batch of BATCH rows (`db` may itself be a transaction: the batches then run in it).
 */
export async function convertSealedFields(
  db: AnyDb,
  models: readonly ResourceModel[],
  config: Pick<Config, 'crypto' | 'masterKey'>,
  log: { info(message: string): void; warn(message: string): void },
): Promise<number> {
  const targets = sealTargets(models);
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
      throw masterKeyError(
        '未设置：数据库中的身份证号、手机号等字段已加密保存，需原主密钥才能启动',
        'is not set: ID card and mobile columns in the database are sealed and need the master key they were sealed with',
      );
    }
  } else {
    await sql`INSERT INTO sys_config (key, value) VALUES (${SEALED_FIELDS_SETTING}, 'sm') ON CONFLICT (key) DO NOTHING`.execute(db);
  }
  const opener = cipher ?? fieldCipher({ crypto: 'sm', masterKey: config.masterKey })!;
  const total = await convertTargets(db, targets, opener, sealing);
  if (!sealing) await sql`DELETE FROM sys_config WHERE key = ${SEALED_FIELDS_SETTING}`.execute(db);
  if (total > 0)
    log.info(
      sealing
        ? `sealed ID card and mobile values in place: ${total} rows`
        : `unsealed ID card and mobile values (PORTAL_CRYPTO is no longer sm): ${total} rows`,
    );
  return total;
}

/**
 * Seals the plain values the account columns hold (written by the demo seed or by SQL of its
 * own) with `cipher`: the start's conversion of SEALED_ACCOUNT_COLUMNS, for the demo seed that
 * runs after it. Returns the rows rewritten.
 */
export async function sealAccountColumns(db: AnyDb, cipher: FieldCipher): Promise<number> {
  await sql`INSERT INTO sys_config (key, value) VALUES (${SEALED_FIELDS_SETTING}, 'sm') ON CONFLICT (key) DO NOTHING`.execute(db);
  return convertTargets(db, sealTargets([]), cipher, true);
}

/** Seals (`sealing`) or unseals every value of `targets` still in the other form, batch by batch. */
async function convertTargets(db: AnyDb, targets: readonly SealTarget[], opener: FieldCipher, sealing: boolean): Promise<number> {
  let total = 0;
  for (const target of targets) {
    const { table, key, columns: cols } = target;
    const columns = [key, ...cols.map((c) => c.column)].map(quote);
    const pending = sealing ? cols.map((c) => `(${quote(c.column)} <> '' AND ${quote(c.column)} NOT LIKE 'sealed:%')`).join(' OR ') : sealedCondition(target);
    await checkKey(db, target, opener);
    for (;;) {
      const done = await inTransaction(db, async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext('portal:sealed-fields'))`.execute(trx);
        const { rows } = await sql<
          Record<string, string | null>
        >`SELECT ${sql.raw(columns.join(', '))} FROM ${sql.table(table)} WHERE ${sql.raw(pending)} LIMIT ${BATCH}`.execute(trx);
        for (const row of rows) {
          const sets = cols.flatMap((c) => {
            const stored = row[c.column];
            const plain = typeof stored === 'string' && stored !== '' ? opener.open(stored) : null;
            const value = plain === null ? stored : sealing ? opener.seal(plain) : plain;
            const set = [sql`${sql.ref(c.column)} = ${value}`];
            if (c.indexed) set.push(sql`${sql.ref(indexColumnOf(c.column))} = ${plain === null || !sealing ? null : opener.index(plain)}`);
            return set;
          });
          await sql`UPDATE ${sql.table(table)} SET ${sql.join(sets)} WHERE ${sql.ref(key)} = ${row[key]}`.execute(trx);
        }
        return rows.length;
      });
      total += done;
      if (done < BATCH) break;
    }
  }
  return total;
}

/** Whether any sealable column of `targets` holds a sealed value or a blind index. */
async function anySealed(db: AnyDb, targets: readonly SealTarget[]): Promise<boolean> {
  for (const target of targets) {
    const { rows } = await sql`SELECT 1 FROM ${sql.table(target.table)} WHERE ${sql.raw(sealedCondition(target))} LIMIT 1`.execute(db);
    if (rows.length > 0) return true;
  }
  return false;
}

/** One sealed value of the table opened with the current key: a different master key stops the start. */
async function checkKey(db: AnyDb, { table, columns }: SealTarget, cipher: FieldCipher): Promise<void> {
  const any = columns.map((c) => `${quote(c.column)} LIKE 'sealed:%'`).join(' OR ');
  const { rows } = await sql<
    Record<string, string | null>
  >`SELECT ${sql.raw(columns.map((c) => quote(c.column)).join(', '))} FROM ${sql.table(table)} WHERE ${sql.raw(any)} LIMIT 1`.execute(db);
  const value = rows[0] && columns.map((c) => rows[0][c.column]).find((v): v is string => typeof v === 'string' && isSealed(v));
  if (!value) return;
  try {
    cipher.open(value);
  } catch {
    throw masterKeyError('与加密保存身份证号、手机号等字段时所用的主密钥不一致', 'is not the key the ID card and mobile columns were sealed with');
  }
}
