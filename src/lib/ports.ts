/**
 * A port: what a lower module needs from a module above it, where importing that module's public
 * file would make a cycle. The lower module declares it in its public file (`definePort<Shape>(name)`)
 * and lists it in its module's `ports`; exactly one upper module provides it in its own module
 * (`provides: [provide(port, value)]`). The composition root binds them once at start and fails,
 * naming the port, when one is provided by no module or by two: nothing registers later.
 */
declare const shape: unique symbol;

export type Port<T> = {
  /** `<declaring module>.<what it asks>`, as start-up errors name it. */
  readonly name: string;
  /** Carries the provided value's type; never set. */
  readonly [shape]?: T;
};

export type PortBinding = { readonly port: Port<unknown>; readonly value: unknown };

/** The ports of a desk, each with its one provided value. */
export type Ports = { get<T>(port: Port<T>): T };

export const definePort = <T>(name: string): Port<T> => ({ name });

export const provide = <T>(port: Port<T>, value: NoInfer<T>): PortBinding => ({ port, value });

/** A port declared by one module and provided by none or by several, or provided but never declared. */
export class PortWiringError extends Error {
  override name = "PortWiringError";
}

type Declared = { module: string; ports?: readonly Port<unknown>[] };
type Providing = { module: string; provides?: readonly PortBinding[] };

/** Binds every declared port to its one provider; throws PortWiringError listing every fault. */
export function bindPorts(declarers: readonly Declared[], providers: readonly Providing[]): Ports {
  const declaredBy = new Map<Port<unknown>, string>();
  const faults: string[] = [];
  for (const { module, ports = [] } of declarers)
    for (const port of ports) {
      const earlier = declaredBy.get(port);
      if (earlier) faults.push(`port ${port.name} is declared twice (${earlier}, ${module})`);
      declaredBy.set(port, module);
    }
  const bound = new Map<Port<unknown>, { module: string; value: unknown }>();
  for (const { module, provides = [] } of providers)
    for (const { port, value } of provides) {
      const earlier = bound.get(port);
      if (earlier) faults.push(`port ${port.name} is provided twice (${earlier.module}, ${module})`);
      else if (!declaredBy.has(port))
        faults.push(`port ${port.name} is provided by ${module} but no module declares it`);
      bound.set(port, { module, value });
    }
  for (const [port, module] of declaredBy)
    if (!bound.has(port)) faults.push(`port ${port.name} (declared by ${module}) is provided by no module`);
  if (faults.length > 0) throw new PortWiringError(faults.join("; "));
  return {
    get<T>(port: Port<T>): T {
      const binding = bound.get(port);
      if (!binding) throw new PortWiringError(`port ${port.name} is not declared by any module of this desk`);
      return binding.value as T;
    },
  };
}
