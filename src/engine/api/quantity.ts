// Resource quantities (100m, 128Mi, 1.5Gi, 2e3), parsed and printed as Kubernetes' resource.Quantity does.
// STUB: the signatures below are the contract; the implementation is being written.

/** Quantity is an exact resource amount with the format it was written in. */
export interface Quantity {
  /** milliValue is the amount times 1000, rounded up (as resource.Quantity.MilliValue). */
  milliValue(): number;
  /** value is the amount rounded up to an integer (as resource.Quantity.Value). */
  value(): number;
  /** toString prints the canonical form (as resource.Quantity.String). */
  toString(): string;
}

/** parseQuantity parses a quantity string (or number), throwing QuantityError as resource.ParseQuantity fails. */
export declare function parseQuantity(input: string | number): Quantity;
