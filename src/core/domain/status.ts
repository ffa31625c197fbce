/**
 * The closed vocabulary of outcomes. A node answers every data request with a
 * {@link KvStatus}; the client's transport fails with a {@link TransportErrorCode};
 * anything else is {@link NON_RETRYABLE}. Code compares these constants, never
 * free-form strings.
 */
export const KV_STATUSES = [
  'Ok',
  'NotFound',
  'Conflict',
  'Moved',
  'OwnershipChanging',
  'ReplicaWriteRejected',
  'Migrating',
  'Unavailable',
] as const;
export type KvStatus = (typeof KV_STATUSES)[number];
export const KvStatus = {
  Ok: 'Ok',
  NotFound: 'NotFound',
  Conflict: 'Conflict',
  Moved: 'Moved',
  OwnershipChanging: 'OwnershipChanging',
  ReplicaWriteRejected: 'ReplicaWriteRejected',
  Migrating: 'Migrating',
  Unavailable: 'Unavailable',
} as const satisfies { [K in KvStatus]: K };

/** Transport-level failures: the node could not be reached or did not answer. */
export const TRANSPORT_ERRORS = ['NodeUnavailable', 'PartitionUnavailable', 'Transport', 'Socket', 'Timeout'] as const;
export type TransportErrorCode = (typeof TRANSPORT_ERRORS)[number];
export const TransportErrorCode = {
  NodeUnavailable: 'NodeUnavailable',
  PartitionUnavailable: 'PartitionUnavailable',
  Transport: 'Transport',
  Socket: 'Socket',
  Timeout: 'Timeout',
} as const satisfies { [K in TransportErrorCode]: K };

/** Any exception that is not a transport failure: rethrown at once, never retried. */
export const NON_RETRYABLE = 'NonRetryable' as const;
export type OpErrorCode = TransportErrorCode | typeof NON_RETRYABLE;
export const OP_ERRORS: readonly OpErrorCode[] = [...TRANSPORT_ERRORS, NON_RETRYABLE];

/** A status or an error: what one attempt or one operation came to. */
export type Outcome = KvStatus | OpErrorCode;
export const OUTCOMES: readonly Outcome[] = [...KV_STATUSES, ...OP_ERRORS];

/** Dense numeric code of an outcome (for typed arrays and compact transfer). */
export const OUTCOME_CODE: Readonly<Record<Outcome, number>> = Object.fromEntries(
  OUTCOMES.map((o, i) => [o, i]),
) as Record<Outcome, number>;

export function isKvStatus(x: string): x is KvStatus {
  return (KV_STATUSES as readonly string[]).includes(x);
}
