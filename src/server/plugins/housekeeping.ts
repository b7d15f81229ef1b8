/**
 * Runs the housekeeping job (services/housekeeping.ts) once the app is ready and then every
 * `housekeepingMinutes`; the timer does not keep the process alive and stops when the app closes.
 * A failed run is logged and retried at the next tick. The domain features' own jobs
 * (DomainFeature `housekeeping`, passed as `jobs`) run after it, each on its own.
 */
import fp from 'fastify-plugin';
import { runHousekeeping } from '../services/housekeeping';
import type { AnyDb } from '../resources/repository';

export default fp(
  async (app, { jobs = [] }: { jobs?: readonly ((db: AnyDb) => Promise<void>)[] }) => {
    const { config } = app;
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> | null = null;
    const tick = () => {
      if (running) return;
      running = runHousekeeping(app.db, config)
        .then((report) => {
          if (Object.values(report).some((n) => n > 0)) app.log.info({ housekeeping: report }, 'housekeeping pruned rows');
        })
        .catch((err: unknown) => app.log.warn({ err }, 'housekeeping failed'))
        .then(async () => {
          for (const job of jobs) await job(app.db).catch((err: unknown) => app.log.warn({ err }, 'housekeeping job failed'));
        })
        .finally(() => {
          running = null;
        });
    };
    app.addHook('onReady', async () => {
      tick();
      timer = setInterval(tick, config.housekeepingMinutes * 60_000);
      timer.unref();
    });
    // preClose: the timer stops and a running pass ends before the database is closed.
    app.addHook('preClose', async () => {
      if (timer) clearInterval(timer);
      await running;
    });
  },
  { name: 'housekeeping', dependencies: ['db'] },
);
