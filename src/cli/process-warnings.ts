/**
 * Node writes its process warnings (a listener leak, a deprecation in a dependency) to stderr.
 * Under the full-screen UI that text lands in the middle of the frame and stays there until the
 * next full repaint. While the UI runs, each distinct warning becomes one status line in the
 * transcript instead; the default printer is put back when the UI ends.
 */

/** Distinct warnings shown in one session: a warning raised in a loop cannot flood the transcript. */
export const MAX_SHOWN_WARNINGS = 20;

export function routeProcessWarnings(show: (text: string) => void): () => void {
  const printers = process.listeners('warning');
  // Node adds its printer unless told not to (`--no-warnings`, NODE_NO_WARNINGS=1): then nothing is shown here either.
  if (printers.length === 0) return () => {};
  for (const printer of printers) process.off('warning', printer);
  const shown = new Set<string>();
  const onWarning = (warning: Error) => {
    const text = `${warning.name}: ${warning.message}`;
    if (shown.has(text) || shown.size >= MAX_SHOWN_WARNINGS) return;
    shown.add(text);
    show(text);
  };
  process.on('warning', onWarning);
  return () => {
    process.off('warning', onWarning);
    for (const printer of printers) process.on('warning', printer);
  };
}
