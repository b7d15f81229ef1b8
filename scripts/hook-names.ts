/** Names of the server hooks resources may name in `derive`, `onDelete` and workflow `effects` (src/server/domain/<feature>/hooks.ts). */
export { HOOK_NAMES } from '../src/server/domain/index';
