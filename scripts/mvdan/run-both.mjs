// One case's text run by bash -o pipefail -c and by safe-run -c, each in a fresh empty directory at the
// same path with the same HOME and environment: stdout, stderr, exit code and the files left behind.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const BIN = path.resolve(import.meta.dirname, '../../bin/safe-run');
// Far above what any case needs; a case that reaches it is reported as timed out, not compared.
const LIMIT_S = 20;

// What mvdan/sh's TestMain puts in the environment, and GOSH_PROG as a stand-in for its test binary.
export function caseEnv(root) {
  return {
    PATH: process.env.PATH,
    LANG: process.env.LANG ?? 'C.UTF-8',
    HOME: path.join(root, 'home'),
    NO_COLOR: '1',
    INTERP_GLOBAL: 'value',
    MULTILINE_INTERP_GLOBAL: '\nwith\nnewlines\n\n',
    MIXEDCASE_INTERP_GLOBAL: 'value',
    PATH_PROG: 'sh',
    ENV_PROG: 'env',
    GO_TEST_DIR: root,
    GOSH_PROG: path.join(root, 'gosh-prog'),
  };
}

// The stand-in for mvdan/sh's test binary: its GOSH_CMD behaviours, else its argument run by bash.
export function writeGoshProg(root) {
  const file = path.join(root, 'gosh-prog');
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      'case "$GOSH_CMD" in',
      'exit_0) exit 0 ;;',
      'exit_5) exit 5 ;;',
      'print_ok) echo "exec ok"; exit 0 ;;',
      'print_fail) echo "exec fail"; exit 1 ;;',
      'pid_and_hang) echo $$; exec sleep 3600 ;;',
      "foo_null_bar) printf 'foo\\000bar\\n'; exit 0 ;;",
      'lookpath) if command -v sh >/dev/null; then echo "sh found"; exit 0; fi',
      '  echo \'exec: "sh": executable file not found in $PATH\'; exit 1 ;;',
      'esac',
      'exec bash -c "$1"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
}

async function fresh(dir) {
  if (fs.existsSync(dir)) {
    await spawnQuiet('chmod', ['-R', 'u+rwx', dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.mkdirSync(dir, { recursive: true });
}

function spawnQuiet(cmd, args) {
  return new Promise((resolve) => spawn(cmd, args, { stdio: 'ignore' }).on('close', resolve));
}

// Every entry under dir: its kind, mode and, for a regular file, its bytes.
export function snapshot(dir) {
  const out = {};
  const walk = (rel) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      out[`${rel}/`] = `unreadable ${error.code}`;
      return;
    }
    for (const entry of entries) {
      const child = path.join(rel, entry.name);
      const full = path.join(dir, child);
      const stat = fs.lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      if (entry.isSymbolicLink()) out[child] = `link -> ${fs.readlinkSync(full)}`;
      else if (entry.isDirectory()) {
        out[`${child}/`] = `dir ${mode}`;
        walk(child);
      } else if (entry.isFile()) {
        let bytes;
        try {
          bytes = fs.readFileSync(full).toString('latin1');
        } catch (error) {
          bytes = `unreadable ${error.code}`;
        }
        out[child] = `file ${mode} ${bytes}`;
      } else out[child] = `special ${mode}`;
    }
  };
  walk('.');
  return out;
}

// Runs argv in its own process group with stdin /dev/null; the group is killed at the limit.
function runGroup(argv, cwd, env, limitMs) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, limitMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // What bash or safe-run left running in its group (a background job) goes with it.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      resolve({
        code: code ?? `signal ${signal}`,
        timedOut,
        stdout: Buffer.concat(out).toString('latin1'),
        stderr: Buffer.concat(err).toString('latin1'),
      });
    });
  });
}

// One run of the text in `dir` (made fresh, HOME too), and what it left there.
async function runOnce(argv, dir, env) {
  await fresh(dir);
  await fresh(env.HOME);
  const result = await runGroup(argv, dir, env, (LIMIT_S + 10) * 1000);
  return { ...result, files: snapshot(dir), home: snapshot(env.HOME) };
}

export async function runBash(text, dir, env) {
  return runOnce(['bash', '--norc', '--noprofile', '-o', 'pipefail', '-c', '--', text], dir, env);
}

export async function runSafeRun(text, root, dir, env) {
  const report = path.join(root, 'report.json');
  fs.rmSync(report, { force: true });
  const argv = [process.execPath, BIN, '--no-facts', '--sigpipe', 'fail', '-q', '--report', report];
  argv.push('--timeout', `${LIMIT_S}s`, '-c', text);
  const result = await runOnce(argv, dir, env);
  const json = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : null;
  return { ...result, report: json };
}
