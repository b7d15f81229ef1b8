/** Login, logout, the login page's public key, captcha and runtime configuration. */
import type { FastifyPluginAsync } from 'fastify';
import { API } from '../../shared/contract';
import { toAppConfig } from '../config';
import { okEnvelope } from '../envelope';
import { AppError } from '../errors';
import { clearSessionCookie, setSessionCookie } from '../plugins/session';
import {
  authenticateWithPassword,
  authenticateWithRegionalSso,
  authenticateWithSsoToken,
  openSession,
  type AuthDeps,
  type Authenticated,
} from '../services/auth';
import { CAPTCHA_COOKIE, CAPTCHA_TTL_MS, createCaptcha } from '../services/captcha';
import { countHit } from '../services/rate-counter';
import { deleteSession } from '../services/sessions';
import { auditSecurityEvent, failedLoginActor } from '../services/security-audit';
import { appConfigSchema, envelopeOf, failureResponses, loginResultProperties, loginResultSchema, publicKeySchema } from '../../shared/wire';

const field = { type: 'string', maxLength: 4096 } as const;

interface LoginBody {
  username?: string;
  password?: string;
  orgCode?: string;
  validateCode?: string;
  ynUserSeedLogin?: string;
  __ajax?: string;
  ssotoken?: string;
  reqInfoBase64Str?: string;
  ynSsoToken?: string;
  loginType?: string;
}

const loginBodySchema = {
  type: 'object',
  properties: {
    username: {
      ...field,
      description:
        'login name encrypted under the public key: RSA-OAEP (SHA-256) as base64, or with PORTAL_CRYPTO=sm SM2 (C1C3C2, C1 with its 04 prefix) as hex',
    },
    password: { ...field, description: 'password, encrypted like username' },
    orgCode: { ...field, description: "unit's unified social credit code, encrypted like username" },
    validateCode: { type: 'string', maxLength: 16, description: 'captcha answer' },
    ynUserSeedLogin: { type: 'string', maxLength: 16 },
    __ajax: { type: 'string', maxLength: 16 },
    ssotoken: { ...field, description: 'signed SSO token (SSO variant)' },
    reqInfoBase64Str: { ...field, description: 'base64 JSON {loginName} (regional SSO variant)' },
    ynSsoToken: { ...field, description: 'signed SSO token for the same loginName (regional SSO variant)' },
    loginType: { type: 'string', maxLength: 16, description: 'PC (regional SSO variant)' },
  },
} as const;

const authRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  const deps: AuthDeps = { db: app.db, keys: app.keys, config };

  /**
   * Per account and per address and account, counted after the login name is decrypted (the
   * per-IP ceiling on the route cannot see it). Every password attempt also spends a fresh captcha.
   */
  const throttle = (ip: string) => async (loginName: string) => {
    const account = loginName.toLowerCase();
    const [perAccount, perIpAccount] = await Promise.all([
      countHit(app.db, `login:account:${account}`, 60_000),
      countHit(app.db, `login:ip-account:${ip}:${account}`, 60_000),
    ]);
    if (perAccount.count > config.loginAccountRateLimit || perIpAccount.count > config.loginIpAccountRateLimit) throw new AppError('LOGIN_THROTTLED');
  };

  app.get(API.publicKey, {
    config: { public: true },
    schema: {
      summary: 'Public key the browser encrypts login fields with, and its algorithm',
      tags: ['auth'],
      response: { 200: envelopeOf(publicKeySchema), ...failureResponses },
    },
    handler: async (_request, reply) => reply.ok({ publicKey: app.keys.publicKey, algorithm: app.keys.algorithm }),
  });

  app.get(API.captcha, {
    config: { public: true, rateLimit: { max: config.captchaRateLimit, timeWindow: 60_000 } },
    schema: { summary: 'Image captcha (SVG); its answer is bound to the captchaId cookie', tags: ['auth'] },
    handler: async (request, reply) => {
      const captcha = await createCaptcha(app.db, config.captchaCap, request.cookies[CAPTCHA_COOKIE]);
      reply.setCookie(CAPTCHA_COOKIE, captcha.id, { path: config.apiBase, httpOnly: true, sameSite: 'lax', maxAge: CAPTCHA_TTL_MS / 1000 });
      return reply.type('image/svg+xml').header('Cache-Control', 'no-store').send(captcha.svg);
    },
  });

  app.get(API.appConfig, {
    config: { public: true },
    schema: {
      summary: 'Runtime configuration for the browser (AppConfig)',
      tags: ['auth'],
      response: { 200: envelopeOf(appConfigSchema), ...failureResponses },
    },
    handler: async (_request, reply) => reply.ok(toAppConfig(config)),
  });

  app.post<{ Body: LoginBody }>(API.login, {
    config: { public: true, rateLimit: { max: config.loginRateLimit, timeWindow: 60_000 } },
    schema: {
      summary: 'Log in with encrypted account/password/org code and captcha, or an SSO token',
      tags: ['auth'],
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: loginBodySchema,
      response: { 200: envelopeOf(loginResultSchema, loginResultProperties), ...failureResponses },
    },
    handler: async (request, reply) => {
      const body = request.body ?? {};
      let auth: Authenticated;
      if (body.ssotoken) {
        auth = await authenticateWithSsoToken(deps, body.ssotoken);
      } else if (body.reqInfoBase64Str || body.ynSsoToken) {
        auth = await authenticateWithRegionalSso(deps, body.reqInfoBase64Str ?? '', body.ynSsoToken ?? '');
      } else {
        const captchaId = request.cookies[CAPTCHA_COOKIE];
        if (captchaId) reply.clearCookie(CAPTCHA_COOKIE, { path: config.apiBase });
        // The login name once decrypted (the throttle sees it first): a refusal after it is audited.
        let attempted: string | null = null;
        const counted = throttle(request.ip);
        try {
          auth = await authenticateWithPassword(deps, {
            username: body.username ?? '',
            password: body.password ?? '',
            orgCode: body.orgCode ?? '',
            validateCode: body.validateCode,
            captchaId,
            throttle: async (loginName) => {
              attempted = loginName;
              await counted(loginName);
            },
          });
        } catch (err) {
          if (attempted !== null && err instanceof AppError)
            await auditSecurityEvent(app.db, 'login-failed', await failedLoginActor(app.db, attempted), attempted, { ip: request.ip, reason: err.message });
          throw err;
        }
      }
      const result = await openSession(deps, auth, { ip: request.ip, loginType: body.loginType ?? null, ynUserSeedLogin: body.ynUserSeedLogin ?? null });
      const who = { userId: auth.user.id, userName: auth.user.name, unitId: auth.unit.id, areaCode: auth.unit.areacode };
      await auditSecurityEvent(app.db, 'login', who, auth.user.login_name, {
        ip: request.ip,
        method: { password: '密码', sso: '单点登录', regionalSso: '区域单点登录' }[auth.method],
      });
      setSessionCookie(reply, result.sessionId, config.apiBase);
      // JeeSite clients read the session ids and user at the top level as well as in data.
      const { sessionid, sessionId, extendSessionId, user } = result;
      return reply.send({ ...okEnvelope(result, '登录成功'), sessionid, sessionId, extendSessionId, user });
    },
  });

  app.get(API.logout, {
    config: { public: true },
    schema: { summary: 'End the current session', tags: ['auth'], response: { 200: envelopeOf(), ...failureResponses } },
    handler: async (request, reply) => {
      const session = request.session;
      if (session) {
        await deleteSession(app.db, session.id);
        const who = { userId: session.user.id, userName: session.user.name, unitId: session.user.unitId, areaCode: session.user.unitAreacode };
        await auditSecurityEvent(app.db, 'logout', who, session.user.loginName, { ip: request.ip });
      }
      clearSessionCookie(reply, config.apiBase);
      return reply.ok(null, '退出成功');
    },
  });
};

export default authRoutes;
