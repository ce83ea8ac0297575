// Loaded with `node --require` into the app under test: SIGUSR2 makes the process raise a warning,
// twice, the way a listener leak or a deprecated call in a dependency would.
process.on('SIGUSR2', () => {
  process.emitWarning('a warning raised inside the app', 'ProbeWarning');
  process.emitWarning('a warning raised inside the app', 'ProbeWarning');
});
