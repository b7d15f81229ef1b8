/** The logged-in user: profile, roles, unit, password. */
import type { FastifyPluginAsync } from 'fastify';
import { API } from '../../shared/contract';
import { AppError } from '../errors';
import { clearSessionCookie, requireSession } from '../plugins/session';
import { passwordHasher, satisfiesPasswordRule } from '../services/password';
import { refuseRecentPassword, storePassword } from '../services/password-policy';
import { auditSecurityEvent } from '../services/security-audit';
import { deleteUserSessions, setSessionRole } from '../services/sessions';
import { cipherOf, sealValue } from '../resources/sealed-fields';
import { findRoles, findUserById, toUnitInfo, toUserInfo } from '../services/users';
import { validateProfile, type ProfileInput } from '../services/profile';
import {
  changeRoleResultSchema,
  companyInfoSchema,
  envelopeOf,
  failureResponses,
  unitInfoSchema,
  userInfoResultSchema,
  userInfoSchema,
} from '../../shared/wire';

const profileBodySchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    identityCard: { type: 'string', maxLength: 18 },
    phone: { type: 'string', maxLength: 30 },
    mobile: { type: 'string', maxLength: 20 },
  },
  required: ['name'],
} as const;

const passwordBodySchema = {
  type: 'object',
  properties: { oldPassword: { type: 'string', minLength: 1, maxLength: 128 }, newPassword: { type: 'string', minLength: 1, maxLength: 128 } },
  required: ['oldPassword', 'newPassword'],
} as const;

const tags = ['user'];

const userRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app;

  /** The session's user as UserInfo, with the full role list. */
  async function currentProfile(sessionUserId: string, roleId: string | undefined, simplePwd: boolean) {
    const [{ user, unit }, roles] = await Promise.all([findUserById(db, sessionUserId), findRoles(db, sessionUserId)]);
    const current = roles.find((r) => r.id === roleId) ?? null;
    return { user: toUserInfo(user, unit, current, simplePwd, config.passwordMaxAgeDays, cipherOf(config)), roleList: roles, unit };
  }

  app.get(API.userInfo, {
    config: { beforePasswordChange: true },
    schema: { summary: 'Current user, roles and SSO info', tags, response: { 200: envelopeOf(userInfoResultSchema), ...failureResponses } },
    handler: async (request, reply) => {
      const session = requireSession(request);
      const { user, roleList, unit } = await currentProfile(session.user.id, session.role?.id, session.simplePwd);
      return reply.ok({ user, roleList, userSsoInfo: { ssoUserId: unit.sso_user_id, ssoToken: null } });
    },
  });

  app.get(API.getUserInfo, {
    config: { beforePasswordChange: true },
    schema: { summary: 'Current user (UserInfo)', tags, response: { 200: envelopeOf(userInfoSchema), ...failureResponses } },
    handler: async (request, reply) => {
      const session = requireSession(request);
      const { user } = await currentProfile(session.user.id, session.role?.id, session.simplePwd);
      return reply.ok(user);
    },
  });

  app.post<{ Body: { id: string } }>(API.changeRole, {
    config: { beforePasswordChange: true },
    schema: {
      summary: "Switch the session's current role (one of the user's roles)",
      tags,
      body: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
      response: { 200: envelopeOf(changeRoleResultSchema), ...failureResponses },
    },
    handler: async (request, reply) => {
      const session = requireSession(request);
      const role = (await findRoles(db, session.user.id)).find((r) => r.id === request.body.id);
      if (!role) throw new AppError('ROLE_NOT_OWNED');
      await setSessionRole(db, session.id, role.id);
      return reply.ok({ currentRole: { id: role.id, roleType: role.roleType, name: role.name }, menuIdList: role.menuIdList }, '切换角色成功');
    },
  });

  app.post<{ Body: ProfileInput }>(API.updateInfo, {
    schema: {
      summary: "Update the current user's name, identity card, phone and mobile",
      tags,
      body: profileBodySchema,
      response: { 200: envelopeOf(userInfoSchema), ...failureResponses },
    },
    handler: async (request, reply) => {
      const session = requireSession(request);
      const profile = validateProfile(request.body);
      await db
        .updateTable('sys_user')
        .set({
          name: profile.name,
          id_card: sealValue(cipherOf(config), profile.identityCard),
          phone: profile.phone,
          mobile: sealValue(cipherOf(config), profile.mobile),
          updated_at: new Date(),
        })
        .where('id', '=', session.user.id)
        .execute();
      const { user } = await currentProfile(session.user.id, session.role?.id, session.simplePwd);
      return reply.ok(user, '保存成功');
    },
  });

  app.post<{ Body: { oldPassword: string; newPassword: string } }>(API.updatePwd, {
    config: { beforePasswordChange: true },
    schema: {
      summary: 'Change the password; every session of the user ends, so the user logs in again',
      tags,
      body: passwordBodySchema,
      response: { 200: envelopeOf(), ...failureResponses },
    },
    handler: async (request, reply) => {
      const session = requireSession(request);
      const { oldPassword, newPassword } = request.body;
      const { user } = await findUserById(db, session.user.id);
      if (!(await passwordHasher.verify(oldPassword, user.password_hash))) throw new AppError('OLD_PASSWORD_WRONG');
      if (!satisfiesPasswordRule(newPassword)) throw new AppError('PASSWORD_RULE');
      if (newPassword === oldPassword) throw new AppError('PASSWORD_UNCHANGED');
      // PORTAL_PASSWORD_HISTORY: not the current password nor one of the ones before it.
      await refuseRecentPassword(db, user.id, newPassword, config.passwordHistory);
      const passwordHash = await passwordHasher.hash(newPassword);
      await db.transaction().execute(async (trx) => {
        await storePassword(trx, user.id, passwordHash, { mustChange: false, keepEarlier: Math.max(0, config.passwordHistory - 1) });
        await deleteUserSessions(trx, user.id);
        const who = { userId: user.id, userName: user.name, unitId: session.user.unitId, areaCode: session.user.unitAreacode };
        await auditSecurityEvent(trx, 'password-change', who, user.login_name, { ip: request.ip });
      });
      clearSessionCookie(reply, config.apiBase);
      return reply.ok(null, '密码修改成功，请重新登录');
    },
  });

  app.get(API.unit, {
    schema: { summary: "The current user's unit", tags, response: { 200: envelopeOf(unitInfoSchema), ...failureResponses } },
    handler: async (request, reply) => {
      const { unit } = await findUserById(db, requireSession(request).user.id);
      return reply.ok(toUnitInfo(unit, cipherOf(config)));
    },
  });

  app.get(API.companyInfo, {
    schema: { summary: "The current user's company (unit info with ssoUserId)", tags, response: { 200: envelopeOf(companyInfoSchema), ...failureResponses } },
    handler: async (request, reply) => {
      const { unit } = await findUserById(db, requireSession(request).user.id);
      return reply.ok({ ...toUnitInfo(unit, cipherOf(config)), ssoUserId: unit.sso_user_id });
    },
  });
};

export default userRoutes;
