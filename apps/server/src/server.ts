import { ConfigError, loadConfig } from './config';
import { startServer } from './start';

try {
  await startServer(loadConfig());
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
