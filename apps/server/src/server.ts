import { loadConfig } from './config';
import { startServer } from './start';
import { exitOnStartProblem } from './start-problems';

try {
  await startServer(loadConfig());
} catch (error) {
  // A ConfigError names the variable to fix, whether the schema (config.ts) or the start (start.ts: the
  // database, the data folder, the port) found it: its message is all the operator needs.
  exitOnStartProblem(error);
}
