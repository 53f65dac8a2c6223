// The import graph of a folder's TypeScript files, type-only imports included (a file that imports its types back from
// the module that imports it still ties the two together), and its circles. Every `import … from`, `export … from`, `import "…"` and
// `import("…")` whose specifier is relative or `~/` (app/), resolved to a .ts/.tsx file or a folder's index; folders
// named types/ and .d.ts files (generated) are left out. Paths are from the project's root.
import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";

/** Every .ts and .tsx file under `dir`, as a path from the project's root; hidden files and folders are skipped. */
function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

// `import … from "x"` and `export … from "x"` (within one statement: no semicolon between), `import("x")`, and
// `import "x"` for its effects alone.
const IMPORT = /(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** file -> the files it imports, each with the line of its first import of it. */
export function importGraph(root) {
  const files = walk(root).filter((file) => !file.includes("/types/") && !file.endsWith(".d.ts"));
  const fileSet = new Set(files);
  const resolve = (from, specifier) => {
    let base;
    if (specifier.startsWith("~/")) base = posix.join("app", specifier.slice(2));
    else if (specifier.startsWith(".")) base = posix.normalize(posix.join(posix.dirname(from), specifier));
    else return null;
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, posix.join(base, "index.ts"), posix.join(base, "index.tsx")])
      if (fileSet.has(candidate)) return candidate;
    return null;
  };
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const targets = new Map();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(file, match[1] ?? match[2] ?? match[3]);
      // The line of the specifier: an import over several lines is named where it says what it imports.
      if (target && target !== file && !targets.has(target)) targets.set(target, text.slice(0, match.index + match[0].length).split("\n").length);
    }
    graph.set(
      file,
      [...targets].map(([target, line]) => ({ file: target, line })),
    );
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan), each sorted: the circles. */
export function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
