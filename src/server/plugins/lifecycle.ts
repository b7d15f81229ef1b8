/**
 * What a stopping process needs to know about itself: how many requests are in flight and whether
 * it is draining (`app.lifecycle`). main.ts sets `draining` on SIGTERM; `/health/ready` then answers
 * 503 so a balancer stops sending, and the shutdown log says how many requests it waits for.
 */
import fp from 'fastify-plugin';

export interface Lifecycle {
  /** Requests received and not yet answered. */
  inFlight: number;
  /** The process received a stop signal and is finishing its work. */
  draining: boolean;
  /** Resolves when no request is in flight (at once when none is). */
  idle(): Promise<void>;
  /**
   * Checks `/health/ready` runs besides its own (database, migrations): each resolves when its
   * part works and throws (a message saying what failed) when not. Plugins add theirs at register.
   */
  readinessChecks: Map<string, () => Promise<void>>;
  /**
   * Work a plugin starts once the app listens (an onListen hook, whose error Fastify only logs and
   * does not wait for): each settles when that work is done. main.ts awaits them after listen and
   * ends the start with the first failure.
   */
  afterListen: Promise<void>[];
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

export default fp(
  async (app) => {
    let waiters: (() => void)[] = [];
    const lifecycle: Lifecycle = {
      inFlight: 0,
      draining: false,
      readinessChecks: new Map(),
      afterListen: [],
      idle: () => (lifecycle.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    };
    const done = () => {
      lifecycle.inFlight = Math.max(0, lifecycle.inFlight - 1);
      if (lifecycle.inFlight === 0 && waiters.length) {
        const ready = waiters;
        waiters = [];
        for (const resolve of ready) resolve();
      }
    };
    app.decorate('lifecycle', lifecycle);
    app.addHook('onRequest', (_request, reply, next) => {
      lifecycle.inFlight++;
      // The response's 'close' fires once, whether it was sent in full or the client went away.
      reply.raw.once('close', done);
      next();
    });
    // A draining process closes each connection once its answer is sent: a kept-alive connection
    // (a balancer keeps several) would otherwise hold app.close() until it idles out (Fastify's
    // keep-alive lasts 72 s, past the shutdown limit), and the balancer would send it more requests.
    app.addHook('onSend', (_request, reply, payload, next) => {
      if (lifecycle.draining) reply.header('connection', 'close');
      next(null, payload);
    });
  },
  { name: 'lifecycle' },
);
