/**
 * File-level import cycles of src/: strongly connected components of the module graph (Tarjan),
 * each reported as one concrete loop of files so a failure names what to untangle. A cycle made
 * only of type imports is still a cycle: the two files cannot be read, moved or split apart.
 */
import type { Graph } from './graph.js';

/** One loop through the graph, first module repeated at the end (`a.ts → b.ts → a.ts`). */
export type Cycle = readonly string[];

/** Internal edges as an adjacency map, each target once, in a stable order. */
function adjacency(graph: Graph): Map<string, string[]> {
  const next = new Map<string, Set<string>>(graph.modules.map((m) => [m, new Set<string>()]));
  for (const edge of graph.edges) {
    if (edge.target.kind !== 'internal' || !edge.target.exists) continue;
    if (edge.target.path === edge.from) continue;
    next.get(edge.from)?.add(edge.target.path);
  }
  return new Map([...next].map(([m, targets]) => [m, [...targets].sort()]));
}

/** Strongly connected components with more than one module (Tarjan, iterative: no deep recursion). */
function components(next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; child: number }[] = [{ node: root, child: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const targets = next.get(frame.node) ?? [];
      const target = targets[frame.child++];
      if (target !== undefined) {
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (;;) {
          const member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          component.push(member);
          if (member === frame.node) break;
        }
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

/** The shortest loop from `start` back to itself inside one component (breadth-first). */
function loopThrough(start: string, members: ReadonlySet<string>, next: ReadonlyMap<string, readonly string[]>): Cycle {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i] ?? start;
    for (const target of next.get(at) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [at];
        for (let back = cameFrom.get(at); back !== undefined; back = cameFrom.get(back)) path.push(back);
        return [...path.reverse(), start];
      }
      if (!cameFrom.has(target) && target !== start) {
        cameFrom.set(target, at);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Every file-level cycle of the graph, one loop per strongly connected component, sorted. */
export function importCycles(graph: Graph): Cycle[] {
  const next = adjacency(graph);
  return components(next)
    .map((members) => loopThrough(members[0] ?? '', new Set(members), next))
    .sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

/** `a.ts → b.ts → a.ts`, the way a failure names a cycle. */
export function describeCycle(cycle: Cycle): string {
  return cycle.join(' → ');
}
