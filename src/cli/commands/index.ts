import type { Command } from 'commander';

/** A CLI verb adds itself (and its options/action) to the program. */
export type RegisterCommand = (program: Command) => void;

// Each verb module is owned separately; add new verbs here.
export const COMMANDS: RegisterCommand[] = [];
