import { forgetCompiledRulesets } from '../src/modules/ledger/earning-rules';
import { abandonLeakedEngine } from './pglite-pool';

/**
 * Runs before every test file. The API tier runs several files in one worker process (`isolate: false`,
 * vitest.config.ts), so a module-level cache outlives its file while the next file has a database of its own:
 * a cache keyed by something only unique within one database (a ruleset's version) must be emptied here.
 * A new process-wide cache of database data belongs in this list.
 */
forgetCompiledRulesets();
abandonLeakedEngine();
