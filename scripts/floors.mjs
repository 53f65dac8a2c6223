#!/usr/bin/env node
// `npm test`'s check of the house (decision 036): the floors of app/ as docs/architecture.md declares them ("The
// floors", one table row a floor, the ground first), held against the code's imports, type-only imports included:
// - every folder and top-level file of app/ stands on exactly one floor;
// - no module imports one on a higher floor (the import is named: file, line, and both floors);
// - no two folders (or top-level files) import each other in a circle, on one floor or across floors;
// - no two files import each other in a circle (scripts/import-graph.mjs).
// Exit 1 with every breach listed. Usage: node scripts/floors.mjs [--print] [--root DIR]   (--print: the floors as read, and exit).
import { readFileSync } from "node:fs";
import { importGraph, stronglyConnected } from "./import-graph.mjs";

// --root DIR: another project's tree (the check's own tests plant imports in one); the project's root by default.
const rootAt = process.argv.indexOf("--root");
process.chdir(rootAt > 0 ? process.argv[rootAt + 1] : new URL("..", import.meta.url).pathname);
const DECLARATION = "docs/architecture.md";

/** The table under the "## The floors" heading: `| n | name | `a/`, `b.ts` | what it holds |`, the ground first. */
function readFloors() {
  const text = readFileSync(DECLARATION, "utf8");
  const section = text.split(/^## /m).find((part) => part.startsWith("The floors"));
  if (!section) throw new Error(`${DECLARATION} has no "## The floors" section: the floors are declared there.`);
  const floors = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length < 5 || !/^\d+$/.test(cells[1])) continue;
    const units = [...cells[3].matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\/$/, ""));
    floors.push({ number: Number(cells[1]), name: cells[2], units });
  }
  floors.forEach((floor, i) => {
    if (floor.number !== i + 1) throw new Error(`${DECLARATION}: the floors must be numbered 1, 2, 3… from the ground; found ${floor.number} at row ${i + 1}.`);
  });
  return floors;
}

/** The unit of app/ a file belongs to: its top-level folder, or the top-level file itself. */
const unitOf = (file) => file.split("/")[1];

const floors = readFloors();
const floorOf = new Map();
const problems = [];
for (const floor of floors)
  for (const unit of floor.units) {
    if (floorOf.has(unit)) problems.push(`${unit} is declared on two floors (${floorOf.get(unit).name} and ${floor.name})`);
    floorOf.set(unit, floor);
  }
if (process.argv.includes("--print")) {
  for (const floor of floors) console.log(`${floor.number} ${floor.name}: ${floor.units.join(", ")}`);
  process.exit(0);
}

const graph = importGraph("app");
const units = new Set([...graph.keys()].map(unitOf));
for (const unit of [...units].sort())
  if (!floorOf.has(unit)) problems.push(`app/${unit} stands on no floor: add it to a row of "The floors" in ${DECLARATION}`);
for (const unit of floorOf.keys()) if (!units.has(unit)) problems.push(`"The floors" in ${DECLARATION} names ${unit}, which app/ does not have`);

// Imports that run up a floor, each named once.
const unitGraph = new Map();
for (const [file, targets] of graph) {
  const from = unitOf(file);
  for (const { file: target, line } of targets) {
    const to = unitOf(target);
    if (from === to) continue;
    if (!unitGraph.has(from)) unitGraph.set(from, new Set());
    unitGraph.get(from).add(to);
    const [below, above] = [floorOf.get(from), floorOf.get(to)];
    if (below && above && above.number > below.number)
      problems.push(`${file}:${line} imports ${target}: floor ${below.number} (${below.name}) may not import floor ${above.number} (${above.name})`);
  }
}

// Folders (and top-level files) in a circle: of every circle, its members and one way round it,
// each step with the import that takes it (the rest of the ties are found the same way once one is cut).
const exampleImport = new Map();
for (const [file, targets] of graph)
  for (const { file: target, line } of targets) {
    const key = `${unitOf(file)} -> ${unitOf(target)}`;
    if (!exampleImport.has(key)) exampleImport.set(key, `${file}:${line} -> ${target}`);
  }
/** The shortest way from `start` back to it through `members`, as the list of units on the way. */
function wayRound(start, members) {
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length) {
    const unit = queue.shift();
    for (const next of unitGraph.get(unit) ?? []) {
      if (!members.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, unit);
      if (next === start) {
        const way = [start];
        for (let at = unit; at !== start; at = cameFrom.get(at)) way.unshift(at);
        return [start, ...way];
      }
      queue.push(next);
    }
  }
  return [start];
}
for (const circle of stronglyConnected(unitGraph)) {
  const way = wayRound(circle[0], new Set(circle));
  const steps = way.slice(1).map((to, i) => `    ${exampleImport.get(`${way[i]} -> ${to}`)}`);
  problems.push(`folders in a circle (${circle.length}): ${circle.join(", ")}; one way round it:\n${steps.join("\n")}`);
}

// Files in a circle.
const fileGraph = new Map([...graph].map(([file, targets]) => [file, new Set([...targets].map((t) => t.file))]));
for (const circle of stronglyConnected(fileGraph)) problems.push(`files in a circle: ${circle.join(" <-> ")}`);

for (const problem of problems) console.log(problem);
console.log(
  `${problems.length} breach(es) of the floors among ${graph.size} files in ${units.size} folders and files of app/ on ${floors.length} floors (${DECLARATION})`,
);
process.exit(problems.length ? 1 : 0);
