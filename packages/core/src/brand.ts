/**
 * Brands tell our objects apart across copies of a package: a global CLI, npx or a
 * nested install can load two copies of core in one process, and `instanceof` then
 * says no to an object made by the other copy. `Symbol.for` keys are shared by the
 * whole process, so a brand set by one copy is seen by every other.
 */
export function brand(prototype: object, key: symbol): void {
  Object.defineProperty(prototype, key, { value: true });
}

export function hasBrand(value: unknown, key: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === true;
}
