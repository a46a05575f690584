import type { PlanEntry } from './plan/entry.js';
import type { HostConfig } from './types.js';

/** A config as read and checked, with what its errors call it. */
export interface LoadedConfig {
  config: HostConfig;
  /** Absolute path of the file, when the config came from one. */
  file?: string;
  /** How errors name the config: the file name, or "the host options". */
  label: string;
  /** Relative plugin paths are resolved from here. */
  baseDir: string;
  /** The entries of `plugins`, decoded. */
  entries: PlanEntry[];
}
