import type { RunnerApi } from './api.js';
import { runCompound } from './compound.js';
import { recordUnredirected } from './record-step.js';
import { ReturnSignal } from './signals.js';

// Runs function `name` in `r`: its arguments as $1..., its locals in a scope of their own, `return`
// ends it. A loop around the call is not the function's: break and continue in it say so (bash 5.2).
export async function callFunction(r: RunnerApi, name: string, args: string[]): Promise<number> {
  const { sh } = r;
  const def = sh.functions.get(name)!;
  const saved = sh.positional;
  const loops = sh.loopDepth;
  sh.positional = args;
  sh.loopDepth = 0;
  sh.funcNames.unshift(name);
  sh.vars.pushScope();
  try {
    const failed = recordUnredirected(r, def.body, name, 'shell function');
    const body = { ...def.body, redirects: [] };
    return await r.withRedirects(def.body.redirects, () => runCompound(r, body), failed);
  } catch (error) {
    if (error instanceof ReturnSignal) return error.status;
    throw error;
  } finally {
    sh.vars.popScope();
    sh.funcNames.shift();
    sh.positional = saved;
    sh.loopDepth = loops;
  }
}
