// The suite itself runs in CI (CI=true, maybe GITHUB_ACTIONS=true): safe-run would then stamp its
// lines, print CI groups and a heartbeat. Tests that want those set them explicitly.
for (const name of ['CI', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'GITLAB_CI', 'SAFE_RUN_OPTIONS']) {
  delete process.env[name];
}
