/**
 * `npm run admin -- <command>`: the operator's tool (create the first administrators, reset a
 * password, unlock an account). The logic is src/server/admin/; this entry only runs it, so the
 * offline package can bundle it with esbuild (dist/admin.mjs) like the server.
 */
import { runAdmin } from '../src/server/admin/cli';

process.exit(await runAdmin(process.argv.slice(2)));
