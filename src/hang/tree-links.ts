import { readdirSync } from 'node:fs';
import { listPids, readText } from '../teardown/proc-read.js';

// The children of a process: every thread's /proc/PID/task/TID/children (a child forked by a thread
// is listed under that thread). null where the kernel has no such file (CONFIG_PROC_CHILDREN off).
function childrenOf(pid: number): number[] | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const tid of tids) {
    const text = readText(`/proc/${pid}/task/${tid}/children`);
    if (text === null) {
      if (tid === String(pid) && !hasChildrenFiles()) return null;
      continue;
    }
    for (const word of text.split(' ')) if (word !== '' && word !== '\n') children.push(Number(word));
  }
  return children;
}

let childrenFiles: boolean | null = null;
function hasChildrenFiles(): boolean {
  childrenFiles ??= readText(`/proc/self/task/${process.pid}/children`) !== null;
  return childrenFiles;
}

// Every process below `root`, root included, sorted. By children links, so it reads the tree and
// nothing else; where the kernel has no children files, by the parent of every process on the machine.
export function findTree(root: number): number[] {
  const found = new Set<number>();
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (found.has(pid)) continue;
    const children = childrenOf(pid);
    if (children === null) return findTreeByParents(root);
    if (children.length === 0 && pid === root && readText(`/proc/${pid}/stat`) === null) return [];
    found.add(pid);
    queue.push(...children);
  }
  return [...found].sort((a, b) => a - b);
}

function findTreeByParents(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of listPids()) {
    const text = readText(`/proc/${pid}/stat`);
    if (!text) continue;
    const ppid = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found = new Set<number>();
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (found.has(pid)) continue;
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return [...found].sort((a, b) => a - b);
}
