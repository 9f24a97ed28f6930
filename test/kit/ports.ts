import type { PortBinding } from "../../src/lib/ports";
import type { FeatureModule } from "../../src/module";

/**
 * The modules with some ports bound to other values: each binding replaces the one the module
 * providing that port gives, so a test fakes what a feature above answers and keeps the rest real.
 */
export function withPorts(modules: readonly FeatureModule[], ...bindings: PortBinding[]): FeatureModule[] {
  for (const binding of bindings)
    if (!modules.some((m) => m.provides?.some((p) => p.port === binding.port)))
      throw new Error(`no module provides port ${binding.port.name}`);
  return modules.map((m) => {
    if (!m.provides?.some((p) => bindings.some((b) => b.port === p.port))) return m;
    return { ...m, provides: m.provides.map((p) => bindings.find((b) => b.port === p.port) ?? p) };
  });
}
