/**
 * Tenant (unit) scope: `request.tenant` is the current unit and area of the logged-in user, and
 * `ownedByUnit` restricts any select/update/delete to rows of that unit. Every query over
 * unit-owned rows goes through it, so one unit never reads or changes another's data.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type RawBuilder } from 'kysely';
import { AppError } from '../errors';

export interface Tenant {
  unitId: string;
  areaCode: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The current unit; throws UNAUTHENTICATED on an anonymous request. */
    readonly tenant: Tenant;
  }
}

export function tenantOf(request: FastifyRequest): Tenant {
  const session = request.session;
  if (!session) throw new AppError('UNAUTHENTICATED');
  return { unitId: session.user.unitId, areaCode: session.user.unitAreacode };
}

/**
 * The condition `<column> = <current unit id>` for `.where(...)` of any select, update or delete
 * (column defaults to `unit_id`; may be qualified, e.g. `u.unit_id`).
 */
export function ownedByUnit(tenant: Tenant, column = 'unit_id'): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} = ${tenant.unitId}`;
}

export default fp(
  async (app) => {
    app.decorateRequest('tenant', {
      getter(this: FastifyRequest) {
        return tenantOf(this);
      },
    });
  },
  { name: 'tenant', dependencies: ['session'] },
);
