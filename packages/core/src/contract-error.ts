import { brand, hasBrand } from './brand.js';

/**
 * A tool or definition that breaks the contract: thrown by defineTool, describeTool and
 * registration. A TypeError (a programmer error), with the tool and the field at fault as
 * fields, so callers (the testing kit, the host) read them instead of parsing the message.
 */
export class ContractError extends TypeError {
  /** The tool's name, when it has a usable one. */
  readonly tool?: string;
  /** The field at fault: `name`, `description`, `input`, `output`, `run`, `timeoutMs`, `annotations`, `inputSchema`. */
  readonly field?: string;
  /** What is wrong and what to do, without the `Tool "x": ` prefix of `message`. */
  readonly reason: string;

  constructor(fields: { tool?: string; field?: string; reason: string }, message?: string) {
    super(message ?? (fields.tool === undefined ? fields.reason : `Tool "${fields.tool}": ${fields.reason}`));
    this.name = 'ContractError';
    if (fields.tool !== undefined) this.tool = fields.tool;
    if (fields.field !== undefined) this.field = fields.field;
    this.reason = fields.reason;
  }
}

const CONTRACT_ERROR = Symbol.for('toolshed.ContractError');
brand(ContractError.prototype, CONTRACT_ERROR);

/** True for a `ContractError` from any copy of `@toolshed/core` loaded in this process. */
export function isContractError(value: unknown): value is ContractError {
  return hasBrand(value, CONTRACT_ERROR);
}
