import { ConfigError, loadConfig } from './config';
import { startServer } from './start';

try {
  await startServer(loadConfig());
} catch (error) {
  // A ConfigError names the variable to fix, whether the schema (config.ts) or the start (start.ts: the
  // database, the data folder, the port) found it: its message is all the operator needs. Anything
  // else is a bug or an unforeseen failure and keeps its stack.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
