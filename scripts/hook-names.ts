/** Names of the server hooks resources may name in `derive` and workflow `effects` (src/server/services/hooks). */
export { HOOK_NAMES } from '../src/server/services/hooks/index';
