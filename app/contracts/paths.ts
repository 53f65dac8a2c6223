import type { Bindings } from "./schema";

export type Segment = { kind: "field"; name: string } | { kind: "index"; index: number };
export type Resolved = { found: true; value: unknown } | { found: false };

const segmentPattern = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g;

export interface ParsedPath {
  root: string;
  segments: Segment[];
}

export function parsePath(path: string): ParsedPath {
  const rootMatch = /^\$([a-z]+)/.exec(path);
  if (!rootMatch) throw new Error(`not a path: ${path}`);
  const segments: Segment[] = [];
  for (const match of path.slice(rootMatch[0].length).matchAll(segmentPattern)) {
    segments.push(match[1] !== undefined ? { kind: "field", name: match[1] } : { kind: "index", index: Number(match[2]) });
  }
  return { root: rootMatch[1], segments };
}

/**
 * `[n]` on a GraphQL connection indexes its nodes, so one contract path reads both a plain
 * array and what the Admin API really returns ({ nodes } or { edges: [{ node }] }).
 */
function elementAt(container: unknown, index: number): unknown {
  if (Array.isArray(container)) return container[index];
  if (container && typeof container === "object") {
    const connection = container as { nodes?: unknown; edges?: unknown };
    if (Array.isArray(connection.nodes)) return connection.nodes[index];
    if (Array.isArray(connection.edges)) {
      const edge = connection.edges[index] as { node?: unknown } | undefined;
      return edge && typeof edge === "object" ? edge.node : undefined;
    }
  }
  return undefined;
}

/** The value at a parsed path, or undefined when it does not resolve or resolves to null (unknown either way). */
export function valueAt(bindings: Bindings, { root, segments }: ParsedPath): unknown {
  let current: unknown = (bindings as Record<string, unknown>)[root];
  for (let i = 0; i < segments.length && current !== null && current !== undefined; i++) {
    const segment = segments[i];
    if (segment.kind === "index") {
      current = elementAt(current, segment.index);
    } else {
      if (typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, segment.name)) return undefined;
      current = (current as Record<string, unknown>)[segment.name];
    }
  }
  return current ?? undefined;
}

/** A path that does not resolve, or resolves to null, is unknown: the caller gets found: false. */
export function resolvePath(bindings: Bindings, path: string): Resolved {
  const value = valueAt(bindings, parsePath(path));
  return value === undefined ? { found: false } : { found: true, value };
}
