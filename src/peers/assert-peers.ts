/**
 * Imported first by every public entry point except `cadre/workflows` (which runs in Temporal's
 * sandbox): a project without `ai`, `zod` or the Temporal SDK, or with a version Cadre does not
 * support, gets one error that says what to install, instead of a stack trace from deep inside a module.
 */
import { assertRequiredPeers } from './peer-check';

assertRequiredPeers();
