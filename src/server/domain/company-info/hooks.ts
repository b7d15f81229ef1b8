/**
 * The unit's registered facts change only through applications the authority approves:
 *
 * - a profile change (unit-change) starts from the profile (ref `profile` with `copy`); on every
 *   save and commit it records what differs from the profile now (`changes`); commit refuses an
 *   application that changes nothing, or while another of the unit waits;
 * - a unit type change (unit-type-change) reads the current type from the profile;
 * - approval writes the values to the profile as a new version (versionNo + 1), stores that
 *   version with what changed (unit-version, the history), and keeps the login unit's name,
 *   area, address and contact (sys_unit, which the session and prefilled forms read) in step.
 */
import { sql } from 'kysely';
import { copyPairs } from '../../../schema/model';
import { todayIn } from '../../../shared/dates';
import { AppError } from '../../errors';
import { changesOf, changesText } from '../../resources/changes';
import type { Hook, HookContext } from '../../resources/hooks';
import { sealValue } from '../../resources/sealed-fields';
import type { Row } from '../../resources/repository';
import { COMPANY_ERRORS } from './errors';

const PROFILE = 'unit-profile';
const VERSION = 'unit-version';

/** The profile fields an application carries: its `profile` ref's `copy` list (the JSON says which). */
function carried(ctx: HookContext): string[] {
  const profile = ctx.model.byName.get('profile');
  return profile ? copyPairs(profile.field).map(([here]) => here) : [];
}

async function profileOf(ctx: HookContext, lock = false): Promise<Row> {
  const profile = typeof ctx.row.profile === 'string' ? await ctx.find(PROFILE, ctx.row.profile, lock) : undefined;
  if (!profile) throw new AppError(COMPANY_ERRORS.UNIT_PROFILE_MISSING);
  return profile;
}

/** Refuses a commit while another application of the same resource and profile waits. */
async function assertNoneWaiting(ctx: HookContext): Promise<void> {
  const column = ctx.model.byName.get('profile')!.column;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${sql.table(ctx.model.table)}
    WHERE ${sql.ref(column)} = ${ctx.row.profile} AND status = 'submitted' AND id <> ${ctx.row.id}`.execute(ctx.trx);
  if (rows[0].n > 0) throw new AppError(COMPANY_ERRORS.UNIT_CHANGE_PENDING);
}

/** What the application changes of the profile, as text (null: nothing). */
function changeText(ctx: HookContext, profile: Row, names: readonly string[]): string | null {
  return changesText(changesOf(ctx.model, names, profile, ctx.row, ctx.dicts)) || null;
}

/**
 * Writes `values` to the profile as its next version and stores that version with `changes`;
 * returns the new version number.
 */
async function newVersion(ctx: HookContext, profile: Row, values: Record<string, unknown>, changes: string | null): Promise<number> {
  const versionNo = Number(profile.versionNo ?? 1) + 1;
  const today = todayIn();
  await ctx.update(PROFILE, String(profile.id), { ...values, versionNo, changedDate: today });
  const after = { ...profile, ...values };
  const snapshot = Object.fromEntries(
    [...ctx.resource(VERSION).byName.values()].filter((f) => f.writable && f.name in after).map((f) => [f.name, after[f.name]]),
  );
  await ctx.insert(VERSION, { ...snapshot, versionNo, approvedDate: today, applyNo: ctx.row.applyNo ?? null, changes });
  await sql`
    UPDATE sys_unit SET orgname = ${after.orgname}, areacode = ${after.area}, address = ${after.address},
      contact = ${after.contactPerson}, contact_phone = ${sealValue(ctx.model.cipher, (after.landline || after.contactMobile || null) as string | null)}
    WHERE id = ${profile.unitId}`.execute(ctx.trx);
  return versionNo;
}

/** `derive` of unit-change: what it changes of the profile as it is now. */
export const unitChangeDiff: Hook = async (ctx) => {
  if (typeof ctx.row.profile !== 'string') return {};
  const profile = await ctx.find(PROFILE, ctx.row.profile);
  return profile ? { changes: changeText(ctx, profile, carried(ctx)) } : {};
};

/** `effects` of unit-change commit. */
export const unitChangeCommit: Hook = async (ctx) => {
  const changes = changeText(ctx, await profileOf(ctx), carried(ctx));
  if (!changes) throw new AppError(COMPANY_ERRORS.UNIT_CHANGE_NOTHING);
  await assertNoneWaiting(ctx);
  return { changes };
};

/** `effects` of unit-change audit-agree. */
export const applyUnitChange: Hook = async (ctx) => {
  const profile = await profileOf(ctx, true);
  const names = carried(ctx);
  const changes = changeText(ctx, profile, names);
  const versionNo = await newVersion(ctx, profile, Object.fromEntries(names.map((n) => [n, ctx.row[n] ?? null])), changes);
  return { versionNo, changes, auditOpinion: ctx.opinion ?? null };
};

/** `derive` of unit-type-change: the unit type before the change, from the profile. */
export const unitTypeCurrent: Hook = async (ctx) => {
  if (typeof ctx.row.profile !== 'string') return {};
  const profile = await ctx.find(PROFILE, ctx.row.profile);
  return profile ? { unitType: profile.unitType ?? null } : {};
};

/** `effects` of unit-type-change commit. */
export const unitTypeCommit: Hook = async (ctx) => {
  const profile = await profileOf(ctx);
  if (profile.unitType === ctx.row.newUnitType) throw new AppError(COMPANY_ERRORS.UNIT_TYPE_UNCHANGED);
  await assertNoneWaiting(ctx);
  return { unitType: profile.unitType ?? null };
};

/** `effects` of unit-type-change audit-agree. */
export const applyUnitTypeChange: Hook = async (ctx) => {
  const profile = await profileOf(ctx, true);
  const changes = changesText(changesOf(ctx.resource(PROFILE), ['unitType'], profile, { unitType: ctx.row.newUnitType }, ctx.dicts)) || null;
  await newVersion(ctx, profile, { unitType: ctx.row.newUnitType }, changes);
  return { auditOpinion: ctx.opinion ?? null };
};
