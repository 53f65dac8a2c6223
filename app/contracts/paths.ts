import type { Bindings } from "./schema";

export type Segment = { kind: "field"; name: string } | { kind: "index"; index: number };
export type Resolved = { found: true; value: unknown } | { found: false };

const segmentPattern = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|(\[\*\])/g;

export interface ParsedPath {
  root: string;
  /** With `[*]`, the segments up to the list. */
  segments: Segment[];
  /** With `[*]`, the segments read from each element of the list. */
  each?: Segment[];
}

export function parsePath(path: string): ParsedPath {
  const rootMatch = /^\$([a-z]+)/.exec(path);
  if (!rootMatch) throw new Error(`not a path: ${path}`);
  const parsed: ParsedPath = { root: rootMatch[1], segments: [] };
  let target = parsed.segments;
  for (const match of path.slice(rootMatch[0].length).matchAll(segmentPattern)) {
    if (match[3] !== undefined) {
      if (parsed.each) throw new Error(`[*] may appear once in a path: ${path}`);
      parsed.each = target = [];
    } else {
      target.push(match[1] !== undefined ? { kind: "field", name: match[1] } : { kind: "index", index: Number(match[2]) });
    }
  }
  return parsed;
}

const nodeOf = (edge: unknown) => (edge && typeof edge === "object" ? (edge as { node?: unknown }).node : undefined);

/**
 * `[n]` on a GraphQL connection indexes its nodes, so one contract path reads both a plain
 * array and what the Admin API really returns ({ nodes } or { edges: [{ node }] }).
 */
function elementAt(container: unknown, index: number): unknown {
  if (Array.isArray(container)) return container[index];
  if (container && typeof container === "object") {
    const connection = container as { nodes?: unknown; edges?: unknown };
    if (Array.isArray(connection.nodes)) return connection.nodes[index];
    if (Array.isArray(connection.edges)) return nodeOf(connection.edges[index]);
  }
  return undefined;
}

/** `[*]` reads the same shapes as `[n]`; anything else (absent, null, a scalar) is no list at all. */
function elementsOf(container: unknown): unknown[] | undefined {
  if (Array.isArray(container)) return container;
  if (container && typeof container === "object") {
    const connection = container as { nodes?: unknown; edges?: unknown };
    if (Array.isArray(connection.nodes)) return connection.nodes;
    if (Array.isArray(connection.edges)) return connection.edges.map(nodeOf);
  }
  return undefined;
}

function walk(start: unknown, segments: Segment[]): unknown {
  let current = start;
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

/**
 * The value at a parsed path, or undefined when it does not resolve or resolves to null (unknown
 * either way). For a `[*]` path, the list's own value: use `valuesAt` for its elements.
 */
export function valueAt(bindings: Bindings, { root, segments }: ParsedPath): unknown {
  return walk((bindings as Record<string, unknown>)[root], segments);
}

/**
 * A `[*]` path's value in every element of its list, null where it does not resolve, or
 * undefined when the list itself is absent, null or not a list.
 */
export function valuesAt(bindings: Bindings, path: ParsedPath, each: Segment[]): unknown[] | undefined {
  return elementsOf(valueAt(bindings, path))?.map((element) => walk(element, each) ?? null);
}

/** A path that does not resolve, or resolves to null, is unknown: the caller gets found: false. */
export function resolvePath(bindings: Bindings, path: string): Resolved {
  const parsed = parsePath(path);
  const value = parsed.each ? valuesAt(bindings, parsed, parsed.each) : valueAt(bindings, parsed);
  return value === undefined ? { found: false } : { found: true, value };
}
