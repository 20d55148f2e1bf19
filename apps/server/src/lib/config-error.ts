/**
 * A start that cannot go on because of a setting, told as one line naming the variable (server.ts prints its
 * message alone). Its own module: the database layer throws it too (a DATA_DIR another process has), and
 * config.ts imports from the database layer, so taking it from config.ts there was an import cycle that failed
 * whichever entry point loaded the database layer first (`npm run db:types`).
 */
export class ConfigError extends Error {}
