import { brand, hasBrand } from './brand.js';
import type { OptionIssue } from './issues.js';

/** The step at which a plugin failed. */
export type PluginPhase = 'resolve' | 'import' | 'validate' | 'options' | 'register';

/** Where in a plugin a failure is, as fields a caller reads (never parsed out of the message). */
export interface PluginErrorFields {
  phase: PluginPhase;
  /** The plugin's name, when known. */
  plugin?: string;
  /** The tool at fault, when the failure is about one tool. */
  tool?: string;
  /** The field at fault: an option path (`smtp.password`), a tool field (`input`), or a plugin field (`apiVersion`). */
  field?: string;
  /** For invalid options: every problem, redacted. */
  issues?: OptionIssue[];
}

/**
 * A plugin that cannot be loaded: the message says what is wrong and what to do, in the
 * plugin's terms; `phase`, `plugin`, `tool` and `field` say where.
 */
export class PluginError extends Error {
  readonly phase: PluginPhase;
  readonly plugin?: string;
  readonly tool?: string;
  readonly field?: string;
  readonly issues?: OptionIssue[];

  constructor(fields: PluginErrorFields, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PluginError';
    this.phase = fields.phase;
    if (fields.plugin !== undefined) this.plugin = fields.plugin;
    if (fields.tool !== undefined) this.tool = fields.tool;
    if (fields.field !== undefined) this.field = fields.field;
    if (fields.issues !== undefined) this.issues = fields.issues;
  }
}

const PLUGIN_ERROR = Symbol.for('toolshed.PluginError');
brand(PluginError.prototype, PLUGIN_ERROR);

/** True for a `PluginError` from any copy of `@toolshed/core` loaded in this process. */
export function isPluginError(value: unknown): value is PluginError {
  return hasBrand(value, PLUGIN_ERROR);
}
