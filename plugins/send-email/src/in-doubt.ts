import { brand, hasBrand } from '@toolshed/core/contract';

const BRAND = Symbol.for('toolshed.send-email.DeliveryInDoubt');

/** Why a message whose content went out may or may not have been delivered. */
export type DoubtReason = 'no_final_reply' | 'connection_closed' | 'process_stopped' | 'damaged_record' | 'unfinished_record';

/**
 * Thrown by a sender when the message content reached the server (SMTP DATA began)
 * but no final reply came back: the server may have kept it. The ledger records
 * the call as in doubt and never sends it again under the same call id.
 */
export class DeliveryInDoubt extends Error {
  readonly reason: DoubtReason;

  constructor(reason: DoubtReason, detail: string) {
    super(detail);
    this.name = 'DeliveryInDoubt';
    this.reason = reason;
  }
}

brand(DeliveryInDoubt.prototype, BRAND);

export function isDeliveryInDoubt(value: unknown): value is DeliveryInDoubt {
  return hasBrand(value, BRAND);
}
