import { describe, expect, test } from "bun:test";
import { bindPorts, definePort, provide, PortWiringError } from "./ports";

const greeting = definePort<(name: string) => string>("lower.greeting");
const farewell = definePort<(name: string) => string>("lower.farewell");

describe("ports", () => {
  test("a declared port answers with the one value its provider bound", () => {
    const ports = bindPorts(
      [{ module: "lower", ports: [greeting] }],
      [{ module: "upper", provides: [provide(greeting, (name) => `hello ${name}`)] }],
    );
    expect(ports.get(greeting)("Ada")).toBe("hello Ada");
  });

  test("a port provided by no module, by two, or never declared fails binding and is named", () => {
    expect(() => bindPorts([{ module: "lower", ports: [greeting, farewell] }], [])).toThrow(
      /lower\.greeting \(declared by lower\) is provided by no module.*lower\.farewell/,
    );
    const hello = provide(greeting, () => "hi");
    expect(() =>
      bindPorts(
        [{ module: "lower", ports: [greeting] }],
        [
          { module: "a", provides: [hello] },
          { module: "b", provides: [hello] },
        ],
      ),
    ).toThrow("port lower.greeting is provided twice (a, b)");
    expect(() => bindPorts([], [{ module: "upper", provides: [hello] }])).toThrow(PortWiringError);
  });
});
