/**
 * Server-side access control from route config:
 *
 *   config: { public: true }                                  anyone
 *   (nothing)                                                 any logged-in user
 *   config: { access: 'system:bypassAccount', seedOnly: true } current role must hold the menu
 *                                                             access id; seedOnly also needs the seed user
 *   config: { accessAny: ['a', 'b'] }                         current role must hold one of them (a
 *                                                             resource's `access`; empty: any role)
 *   config: { beforePasswordChange: true }                    also open to a session whose password must
 *                                                             change first: an administrator set it
 *                                                             (PASSWORD_MUST_CHANGE) or it is older than
 *                                                             PORTAL_PASSWORD_MAX_AGE_DAYS (PASSWORD_EXPIRED),
 *                                                             for every other route until it changes
 *
 * A request without a live session is refused with UNAUTHENTICATED, or SESSION_SUPERSEDED when a
 * newer login of the account ended its session (PORTAL_SINGLE_SESSION).
 *
 * Access ids are the `access` ids of schemas/menu.json. The check runs in onRequest, right after the
 * session is loaded, so an unauthorised request is refused before its body is even parsed.
 */
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { passwordChangeRequired } from '../services/password-policy';
import type { CurrentSession } from '../services/sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open to anonymous requests. */
    public?: boolean;
    /** Menu access id the current role must hold. */
    access?: string;
    /** Menu access ids of which the current role must hold one (empty or absent: no such check). */
    accessAny?: readonly string[];
    /** Only the unit's seed (main) account (isUserSeed = 1). */
    seedOnly?: boolean;
    /** Open to a session that must change its password first (the profile and the change itself). */
    beforePasswordChange?: boolean;
  }
}

export interface AccessRule {
  access?: string;
  accessAny?: readonly string[];
  seedOnly?: boolean;
}

/** Whether a session satisfies an access rule (also usable by code that filters data). */
export function isAllowed(session: CurrentSession, rule: AccessRule): boolean {
  const menuIds = session.role?.menuIds ?? [];
  if (rule.access && !menuIds.includes(rule.access)) return false;
  if (rule.accessAny?.length && !rule.accessAny.some((id) => menuIds.includes(id))) return false;
  if (rule.seedOnly && session.user.isUserSeed !== 1) return false;
  return true;
}

export default fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      if (request.is404 || config.public) return;
      if (!request.session) throw new AppError(request.sessionEnd === 'superseded' ? 'SESSION_SUPERSEDED' : 'UNAUTHENTICATED');
      const { passwordChangeReason } = request.session;
      if (passwordChangeReason && !config.beforePasswordChange) throw passwordChangeRequired(passwordChangeReason, app.config.passwordMaxAgeDays);
      if (!isAllowed(request.session, config)) throw new AppError('FORBIDDEN');
    });
  },
  { name: 'rbac', dependencies: ['session'] },
);
