// The log a store writes to: pino's (and Fastify's) calling convention, fields first.
export interface StoreLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Stores opened without a log (tools, tests) stay quiet. */
export const SILENT: StoreLog = { info: () => undefined, warn: () => undefined };
