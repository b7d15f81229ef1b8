/**
 * A port for a listener a test tells its number in advance (a second metrics listener, a process
 * started with PORT, a balancer's backends). The kernel's own choice (listen on 0, close, hand the
 * number on) lies in the ephemeral range, where any outgoing connection of the machine — a
 * PostgreSQL client of a test running beside it — may take it as its local port before the listener
 * binds: a metrics listener then failed with EADDRINUSE once in a CI run. Ports below the range
 * (Linux: 32768 and up) are never handed to outgoing connections; one is picked at random among
 * them and checked free by binding it.
 */
import { createServer } from 'node:net';

const LOW = 20_000;
const HIGH = 32_000;

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** A port below the ephemeral range that nothing listens on now. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}
