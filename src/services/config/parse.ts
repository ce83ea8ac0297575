import { ConfigError, formatIssues } from './errors';
import { configSchema, type ParsedConfig } from './schema';

/** Validates a raw config value; `label` names the file in every message. */
export function parseConfig(raw: unknown, label: string): ParsedConfig {
  if (raw === undefined || raw === null) {
    throw new ConfigError([`${label}: the file must export a config object (export default { ... })`]);
  }
  const result = configSchema.safeParse(raw, { reportInput: true });
  if (!result.success) throw new ConfigError(formatIssues(result.error.issues).map((line) => `${label}: ${line}`));
  return result.data;
}
