import type { Bindings } from "./schema";

export type Segment = { kind: "field"; name: string } | { kind: "index"; index: number };
export type Resolved = { found: true; value: unknown } | { found: false };

const segmentPattern = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g;
const parsedPaths = new Map<string, { root: string; segments: Segment[] }>();

export function parsePath(path: string): { root: string; segments: Segment[] } {
  const cached = parsedPaths.get(path);
  if (cached) return cached;
  const rootMatch = /^\$([a-z]+)/.exec(path);
  if (!rootMatch) throw new Error(`not a path: ${path}`);
  const segments: Segment[] = [];
  for (const match of path.slice(rootMatch[0].length).matchAll(segmentPattern)) {
    segments.push(match[1] !== undefined ? { kind: "field", name: match[1] } : { kind: "index", index: Number(match[2]) });
  }
  const parsed = { root: rootMatch[1], segments };
  parsedPaths.set(path, parsed);
  return parsed;
}

/**
 * `[n]` on a GraphQL connection indexes its nodes, so one contract path reads both a plain
 * array and what the Admin API really returns ({ nodes } or { edges: [{ node }] }).
 */
function elementAt(container: unknown, index: number): Resolved {
  if (Array.isArray(container)) return index < container.length ? { found: true, value: container[index] } : { found: false };
  if (container && typeof container === "object") {
    const connection = container as { nodes?: unknown; edges?: unknown };
    if (Array.isArray(connection.nodes)) return elementAt(connection.nodes, index);
    if (Array.isArray(connection.edges)) {
      const edge = connection.edges[index] as { node?: unknown } | undefined;
      return edge && typeof edge === "object" && "node" in edge ? { found: true, value: edge.node } : { found: false };
    }
  }
  return { found: false };
}

/** A path that does not resolve, or resolves to null, is unknown: the caller gets found: false. */
export function resolvePath(bindings: Bindings, path: string): Resolved {
  const { root, segments } = parsePath(path);
  let current: unknown = (bindings as Record<string, unknown>)[root];
  for (const segment of segments) {
    if (current === null || current === undefined) return { found: false };
    if (segment.kind === "index") {
      const next = elementAt(current, segment.index);
      if (!next.found) return next;
      current = next.value;
    } else {
      if (typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, segment.name)) return { found: false };
      current = (current as Record<string, unknown>)[segment.name];
    }
  }
  return current === null || current === undefined ? { found: false } : { found: true, value: current };
}
