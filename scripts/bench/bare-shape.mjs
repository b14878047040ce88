// The bare shape of a Node-hosted safe-run, with none of safe-run's code: what any design that keeps
// Node as the host pays at the least. Sections 6 and 7 of the bench (cost-cases.mjs) run it in the
// same rounds as bash and safe-run, so that "the best achievable" comes with figures from that run.
//
//   node bare-shape.mjs stages-node N   Node spawns the N stages itself, linked by FIFOs
//   node bare-shape.mjs stages-sh N     Node hands the N stages to one /bin/sh, which forks them
//   node bare-shape.mjs steps N         Node spawns /bin/true N times, one after the other
//   node bare-shape.mjs start           one command's shape: Node starts an sh that makes two FIFOs
//                                       and answers (safe-run's watchdog), then runs `true` on them
//   node bare-shape.mjs start-cgroup    the same, `true` started inside a cgroup of its own as
//                                       safe-run starts a stage where it can make one (root, or a
//                                       delegated cgroup v2 subtree); elsewhere the same as start
//
// The stages are `printf x | cat ×(N-2) | wc -c`; both stage modes print what wc printed ("1").
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const USAGE =
  'usage: node bare-shape.mjs stages-node N | stages-sh N (N >= 2) | steps N (N >= 1) | start | start-cgroup';

const exited = (child) =>
  new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });

const stageArgvs = (count) => [
  ['printf', 'x'],
  ...Array.from({ length: count - 2 }, () => ['cat']),
  ['wc', '-c'],
];

// The FIFOs that link the stages, made by one mkfifo process: Node has no mkfifo(3), and safe-run
// too makes a run's FIFOs with one mkfifo.
function makeFifos(dir, count) {
  const fifos = Array.from({ length: count - 1 }, (_, i) => path.join(dir, `p${i}`));
  const made = spawnSync('mkfifo', ['-m', '600', ...fifos], { stdio: 'inherit' });
  if (made.status !== 0) throw new Error(`mkfifo: ${made.error?.message ?? `exit ${made.status}`}`);
  return fifos;
}

// A FIFO opened from both sides, as safe-run opens one: a read-write holder first, so that neither
// the read-only nor the write-only open waits for the other, and both stay blocking (a stage handed
// a non-blocking pipe could read EAGAIN).
function openPipe(fifo) {
  const holder = fs.openSync(fifo, 'r+');
  const readFd = fs.openSync(fifo, 'r');
  const writeFd = fs.openSync(fifo, 'w');
  fs.closeSync(holder);
  return { readFd, writeFd };
}

// Node spawns every stage itself, as safe-run does: detached (so each is a session of its own), its
// stdin the previous FIFO's read end, its stdout the next one's write end, the last stage's stdout a
// file read at the end. Done when every stage has exited. This is the floor of safe-run's own shape.
async function stagesNode(dir, count) {
  const pipes = makeFifos(dir, count).map(openPipe);
  const outFile = path.join(dir, 'out');
  const exits = [];
  let stdin = fs.openSync('/dev/null', 'r');
  for (const [i, [file, ...args]] of stageArgvs(count).entries()) {
    const stdout = i < count - 1 ? pipes[i].writeFd : fs.openSync(outFile, 'w');
    exits.push(exited(spawn(file, args, { detached: true, stdio: [stdin, stdout, 'inherit'] })));
    // The stage has its own copies now; the ends kept here would hold the pipes open.
    fs.closeSync(stdin);
    fs.closeSync(stdout);
    stdin = pipes[i]?.readFd;
  }
  await Promise.all(exits);
  return fs.readFileSync(outFile, 'utf8');
}

// The other design: Node starts one /bin/sh and tells it the stages on its stdin; sh forks each one
// in the background with setsid(1) in front (a session of its own, as above), the stage opening its
// own FIFOs, then waits for them all and reports back on its stdout. A fork of sh is cheaper than a
// spawn from Node, so this is the floor of a Node host that hands the starting of stages to a shell.
async function stagesSh(dir, count) {
  const fifos = makeFifos(dir, count);
  const outFile = path.join(dir, 'out');
  const sources = ['/dev/null', ...fifos];
  const targets = [...fifos, outFile];
  const lines = stageArgvs(count).map(
    (argv, i) => `setsid ${argv.join(' ')} <'${sources[i]}' >'${targets[i]}' &`,
  );
  const sh = spawn('/bin/sh', ['-c', 'while read -r line; do eval "$line"; done'], {
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const shExit = exited(sh);
  const reported = new Promise((resolve, reject) => {
    let heard = '';
    sh.stdout.on('data', (chunk) => {
      heard += chunk;
      if (heard.endsWith('done\n')) resolve();
    });
    shExit.then(() => reject(new Error(`sh exited before reporting: ${JSON.stringify(heard)}`)), reject);
  });
  sh.stdin.write(`${lines.join('\n')}\nwait; echo done\n`);
  await reported;
  sh.stdin.end();
  await shExit;
  return fs.readFileSync(outFile, 'utf8');
}

// The floor of a further step of a -c text: one more spawn from Node (detached, as a stage is) and
// its exit, with nothing around it.
async function steps(count) {
  for (let i = 0; i < count; i++) await exited(spawn('/bin/true', [], { detached: true, stdio: 'ignore' }));
}

// What every `safe-run -q -- true` is made of, with none of safe-run's code: a watchdog sh (detached,
// its stdin a pipe from Node) that makes the run's two FIFOs with one mkfifo and answers on its
// stdout, then waits for its stdin to end; the FIFOs opened as pipes; `true` spawned detached with its
// stdout and stderr on them; both read to EOF; the exit awaited; the sh told to end.
async function start(dir, cgroup = null) {
  const fifos = [path.join(dir, 'p0'), path.join(dir, 'p1')];
  const script = 'mkfifo -m 600 "$@" && echo made; while read -r line; do :; done';
  const sh = spawn('/bin/sh', ['-c', script, 'watchdog', ...fifos], {
    detached: true,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const shExit = exited(sh);
  await new Promise((resolve, reject) => {
    sh.stdout.once('data', (chunk) =>
      String(chunk) === 'made\n' ? resolve() : reject(new Error(`sh said ${chunk}`)),
    );
    shExit.then(() => reject(new Error('sh exited before answering')), reject);
  });
  const [out, err] = fifos.map(openPipe);
  for (const fifo of fifos) fs.unlinkSync(fifo);
  const launch = () => spawn('true', [], { detached: true, stdio: ['ignore', out.writeFd, err.writeFd] });
  const child = cgroup ? cgroup.inside(launch) : launch();
  const stageExit = exited(child);
  fs.closeSync(out.writeFd);
  fs.closeSync(err.writeFd);
  const drained = [out.readFd, err.readFd].map(
    (fd) =>
      new Promise((resolve) => {
        const reader = new net.Socket({ fd, readable: true, writable: false });
        reader.on('close', resolve);
        reader.resume();
      }),
  );
  await Promise.all([stageExit, ...drained]);
  sh.stdin.end();
  await shExit;
  cgroup?.remove();
}

// A cgroup (v2) made under this process's own, as safe-run makes a run's: the process moves itself in
// for the spawn and back out (a child is born in its parent's cgroup), which waits for an RCU grace
// period when no move was made for a while. Null where none can be made.
function openCgroup() {
  try {
    const own = /^0::(\/.*)$/m.exec(fs.readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
    const mount = fs
      .readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' - '))
      .find(([before, after]) => after?.startsWith('cgroup2 ') && before.split(' ')[3] === '/');
    if (own === undefined || !mount) return null;
    const home = path.join(mount[0].split(' ')[4], own);
    const dir = path.join(home, `bare-shape-${process.pid}`);
    fs.mkdirSync(dir);
    const move = (into) => fs.writeFileSync(path.join(into, 'cgroup.procs'), String(process.pid));
    return {
      inside(launch) {
        move(dir);
        try {
          return launch();
        } finally {
          move(home);
        }
      },
      remove: () => fs.rmdirSync(dir),
    };
  } catch {
    return null;
  }
}

async function main([mode, countText]) {
  const count = /^\d+$/.test(countText ?? '') ? Number(countText) : 0;
  if (mode === 'steps' && count >= 1) return steps(count);
  if (mode === 'start') return inScratch(start);
  if (mode === 'start-cgroup') return inScratch((dir) => start(dir, openCgroup()));
  const stages = { 'stages-node': stagesNode, 'stages-sh': stagesSh }[mode];
  if (!stages || count < 2) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  return inScratch(async (dir) => process.stdout.write(await stages(dir, count)));
}

async function inScratch(work) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bare-shape-'));
  try {
    await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main(process.argv.slice(2));
