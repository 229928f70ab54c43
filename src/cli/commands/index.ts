import type { Command } from 'commander';

/** A CLI verb adds itself (and its options/action) to the program. */
export type RegisterCommand = (program: Command) => void;

/**
 * Verb modules, loaded on demand: a verb's module pulls in heavy dependencies (the server and SQLite
 * for `serve`, the MCP client for `search`, pg for `migrate`), so `ucp-location search …` loads only
 * what `search` needs. Add new verbs here: every verb name maps to the loader of its module.
 */
const data = async (): Promise<RegisterCommand> => (await import('./data.js')).registerDataCommands;
const serve = async (): Promise<RegisterCommand> => (await import('./serve.js')).registerServeCommand;
const platform = async (): Promise<RegisterCommand> => (await import('./platform.js')).registerPlatformCommands;
const migrate = async (): Promise<RegisterCommand> => (await import('./migrate.js')).registerMigrateCommand;
const agent = async (): Promise<RegisterCommand> => (await import('./agent.js')).registerAgentCommand;
const consoleVerb = async (): Promise<RegisterCommand> => (await import('./console.js')).registerConsoleCommand;
const tenant = async (): Promise<RegisterCommand> => (await import('./tenant.js')).registerTenantCommands;
const conformance = async (): Promise<RegisterCommand> => (await import('./conformance.js')).registerConformanceCommand;

export const VERB_LOADERS: Readonly<Record<string, () => Promise<RegisterCommand>>> = {
  import: data,
  validate: data,
  inventory: data,
  serve,
  discover: platform,
  search: platform,
  lookup: platform,
  'platform-profile': platform,
  migrate,
  conformance,
  agent,
  console: consoleVerb,
  tenant,
};

/** Register the module of `verb` only, or every verb (help, unknown verbs) when it is not known. */
export async function loadCommands(verb: string | undefined): Promise<RegisterCommand[]> {
  const loader = verb === undefined ? undefined : VERB_LOADERS[verb];
  const loaders = loader !== undefined ? [loader] : [...new Set(Object.values(VERB_LOADERS))];
  return Promise.all(loaders.map((load) => load()));
}
