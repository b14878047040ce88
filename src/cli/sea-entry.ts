import { runAsProcess } from './run-process.js';

// The entry of the single-file binary (scripts/build-binary.mjs): the same process as bin/safe-run.
void runAsProcess();
