import type { Command } from 'commander';
import { registerConformanceCommand } from './conformance.js';
import { registerDataCommands } from './data.js';
import { registerMigrateCommand } from './migrate.js';
import { registerPlatformCommands } from './platform.js';
import { registerServeCommand } from './serve.js';

/** A CLI verb adds itself (and its options/action) to the program. */
export type RegisterCommand = (program: Command) => void;

// Each verb module is owned separately; add new verbs here.
export const COMMANDS: RegisterCommand[] = [registerDataCommands, registerServeCommand, registerPlatformCommands, registerMigrateCommand, registerConformanceCommand];
