import type { Db } from './connection';
import type { Tx } from './transaction';

/** What a repository function runs on: the pool, or the transaction its caller opened. */
export type Executor = Db | Tx;
