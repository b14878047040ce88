import fs from 'node:fs';
import path from 'node:path';
import type { BuiltinContext } from './context.js';

// help [-dms] [PATTERN...]: bash's own text about its builtins, as the oracle's bash gives it (its
// arguments are patterns matched against builtin names; nothing of them runs).
export async function help(ctx: BuiltinContext): Promise<number> {
  const dir = ctx.r.rt.scratch();
  const out = path.join(dir, 'help.out');
  const err = path.join(dir, 'help.err');
  const [status] = await ctx.r.rt.oracle.ask('help', [out, err, ...ctx.args]);
  const errors = fs.readFileSync(err).toString('latin1');
  if (errors)
    await ctx.err(
      errors.replace(/^[^:\n]*: line \d+: /gm, `${ctx.sh.messageName()}: line ${ctx.sh.lineno}: `),
    );
  await ctx.out(fs.readFileSync(out).toString('latin1'));
  return ctx.finish(Number(status ?? 1));
}
