// Types of the plain-JS helpers in lib.mjs, for the TypeScript tests that use them.
import type { ChildProcess, SpawnSyncOptions, SpawnSyncReturns } from "node:child_process";

export const root: string;
export function bin(name: string): string;
export const env: NodeJS.ProcessEnv;
export function run(cmd: string, args: string[], opts?: SpawnSyncOptions): SpawnSyncReturns<Buffer>;
export function freePort(): Promise<number>;
export function portInUse(port: number): Promise<boolean>;
export function build(): void;
export function migrate(persistTo?: string): void;
export function servedVars(port: number, environment?: Record<string, string | undefined>): { PUBLIC_ORIGIN: string };
export interface StartedWorker {
  origin: string;
  child: ChildProcess;
  stop(): void;
}
export function startWorker(options: {
  port: number;
  persistTo?: string;
  vars?: Record<string, string>;
  quiet?: boolean;
  runner?: boolean;
  production?: boolean;
}): Promise<StartedWorker>;
export function seed(origin: string): Promise<{ seeded: boolean }>;
