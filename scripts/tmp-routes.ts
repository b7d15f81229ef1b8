import { buildApp } from '../src/server/app';
const app = await buildApp({ logLevel: 'silent' } as never);
await app.ready();
const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, object> };
for (const [p, m] of Object.entries(doc.paths)) if (!p.includes('/r/')) console.log(Object.keys(m).join(','), p);
await app.close();
